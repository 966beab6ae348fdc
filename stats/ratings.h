// Ratings of many players fitted jointly from all their games: the Bradley-Terry model by
// maximum likelihood (as Ordo and BayesElo do), draws counting half, one virtual draw per pair
// that met as a prior (so that a perfect score stays finite), and the ratings of one or more
// players held where they are given (the anchor at 0; or, as rating lists do, fixed references).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ataxx {

struct PairResult {
  std::string first;
  std::string second;
  int first_wins = 0;
  int draws = 0;
  int second_wins = 0;
};

struct Rating {
  std::string name;
  double elo = 0.0;
  double error95 = 0.0;  // relative to the fixed players; 0 for them
  int games = 0;
  bool linked = true;  // false: no chain of games leads to a fixed player (elo 0, error95 infinite)
};

// Players in order of first appearance. fixed_elo: the players whose ratings are held (at least
// one). Throws std::invalid_argument when none is given or a fixed player played no game.
std::vector<Rating> fit_ratings(const std::vector<PairResult>& results, const std::map<std::string, double>& fixed_elo);

}  // namespace ataxx
