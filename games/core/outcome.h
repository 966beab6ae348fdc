// What every game of the family shares about its sides and its end: the two colours, a result and
// why the game ended, and the two end-of-game numbers run configs and model files keep.
#pragma once

#include <cstdint>
#include <string>

namespace ataxx {

enum class Color : std::uint8_t { kX = 0, kO = 1 };
constexpr Color operator~(Color c) { return static_cast<Color>(static_cast<int>(c) ^ 1); }
constexpr int index(Color c) { return static_cast<int>(c); }

enum class Result : std::uint8_t { kOngoing, kXWins, kOWins, kDraw };
// kKingTurned and kEnclosed (an area above half the board) end Schataxx games.
enum class EndReason : std::uint8_t { kNone, kNoPieces, kNoMoves, kHalfmoveClock, kRepetition, kKingTurned, kEnclosed };

struct Outcome {
  Result result = Result::kOngoing;
  EndReason reason = EndReason::kNone;
  bool is_over() const { return result != Result::kOngoing; }
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

// The two end-of-game rules that vary between rule sheets; 0 disables a rule.
struct RuleSettings {
  int halfmove_limit = 100;   // the halfmove clock reaching this is a draw
  int repetition_limit = 3;   // the same board and side this many times ends the game, pieces counted
};

// A result from one side's view: 1 a win, 0 a draw (or a game still going), -1 a loss.
constexpr int result_for(Color side, Result result) {
  if (result == Result::kXWins) return side == Color::kX ? 1 : -1;
  if (result == Result::kOWins) return side == Color::kO ? 1 : -1;
  return 0;
}
constexpr Result win_for(Color winner) { return winner == Color::kX ? Result::kXWins : Result::kOWins; }

std::string to_string(Result result);
std::string to_string(EndReason reason);

}  // namespace ataxx
