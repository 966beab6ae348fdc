// Move text on every board: rejected with std::invalid_argument, or a move of that board that
// writes back to text that reads as the same move.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "fuzz/check.h"
#include "games/ataxx/move.h"

using namespace ataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (int id = 0; id < kNumBoards; ++id) {
    const Board& b = board(static_cast<BoardId>(id));
    Move move;
    try {
      move = parse_move(text, b);
    } catch (const std::invalid_argument&) {
      continue;
    }
    FUZZ_CHECK(move.is_pass() || ((b.cells & bit(move.to)) && (b.cells & bit(move.from))));
    FUZZ_CHECK(parse_move(to_string(move, b), b) == move);
  }
  return 0;
}
