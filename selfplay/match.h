// Matches between two players: every opening twice with colours swapped, several games at
// once, an SPRT that can stop the match early. A player that throws or returns an illegal move
// loses that game; the failure is recorded and the match goes on.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "game/game.h"
#include "selfplay/elo.h"
#include "selfplay/player.h"

namespace ataxx {

struct GameRecord {
  int index = 0;             // game number in the match, from 0
  bool player1_is_x = true;
  Position start;
  std::vector<Move> moves;
  Outcome outcome;
  std::string failure;       // why a player forfeited, if one did
  // From player 1's view: 1 win, 0.5 draw, 0 loss.
  double player1_score() const;
};

struct MatchConfig {
  std::string player1;  // player specs
  std::string player2;
  int games = 100;
  std::vector<Position> openings;  // game i starts from openings[(i / 2) % size]
  int concurrency = 1;
  std::uint64_t seed = 1;
  RuleSettings rules;
  std::optional<SprtParams> sprt;
};

struct MatchResult {
  MatchScore score;
  std::vector<GameRecord> games;  // in order of index
  SprtVerdict verdict = SprtVerdict::kContinue;
};

// Plays one game from start; the players have had new_game() called.
GameRecord play_game(Player& x, Player& o, const Position& start, const RuleSettings& rules);

// on_game runs after each game, one call at a time, with the running score.
MatchResult run_match(const MatchConfig& config,
                      const std::function<void(const GameRecord&, const MatchScore&)>& on_game = {});

// The game as PGN, as the Ataxx tool chain writes it (x is Black and moves first).
std::string to_pgn(const GameRecord& game, const std::string& player1, const std::string& player2,
                   const std::string& event);

}  // namespace ataxx
