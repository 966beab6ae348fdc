// Ratings of many players fitted jointly from all their games: the Bradley-Terry model by
// maximum likelihood (as Ordo and BayesElo do), draws counting half, one virtual draw per pair
// that met as a prior (so that a perfect score stays finite), and the anchor fixed at 0 Elo.
#pragma once

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
  double error95 = 0.0;  // 0 for the anchor
  int games = 0;
};

// Players in order of first appearance. Throws std::invalid_argument when the anchor played no game.
std::vector<Rating> fit_ratings(const std::vector<PairResult>& results, const std::string& anchor);

}  // namespace ataxx
