// FEN text: rejected with std::invalid_argument, or a position whose FEN reads back to the same
// position and whose moves keep the incremental hash equal to the hash from scratch.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "fuzz/check.h"
#include "games/ataxx/game.h"

using namespace ataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Position pos;
  try {
    pos = Position::from_fen(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  FUZZ_CHECK(Position::from_fen(pos.fen()) == pos);
  FUZZ_CHECK(pos.compute_hash() == pos.hash());
  MoveList moves;
  pos.generate_moves(moves);
  // No moves exactly when the board alone ends the game (the clock and repetition rules aside).
  FUZZ_CHECK(moves.empty() == pos.outcome(RuleSettings{.halfmove_limit = 0, .repetition_limit = 0}).is_over());
  for (const Move move : moves) {
    FUZZ_CHECK(pos.is_legal(move));
    Position child = pos;
    child.make_move(move);
    FUZZ_CHECK(child.compute_hash() == child.hash());
    FUZZ_CHECK(Position::from_fen(child.fen()) == child);
  }
  Game game(pos);
  if (!game.outcome().is_over()) game.play(moves[0]);
  return 0;
}
