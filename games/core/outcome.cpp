#include "games/core/outcome.h"

namespace ataxx {

std::string to_string(Result result) {
  switch (result) {
    case Result::kOngoing: return "*";
    case Result::kXWins: return "1-0";
    case Result::kOWins: return "0-1";
    case Result::kDraw: return "1/2-1/2";
  }
  return "?";
}

std::string to_string(EndReason reason) {
  switch (reason) {
    case EndReason::kNone: return "none";
    case EndReason::kNoPieces: return "no pieces";
    case EndReason::kNoMoves: return "no moves";
    case EndReason::kHalfmoveClock: return "halfmove clock";
    case EndReason::kRepetition: return "repetition";
    case EndReason::kKingTurned: return "king turned";
    case EndReason::kEnclosed: return "enclosed";
  }
  return "?";
}

}  // namespace ataxx
