// Move text: rejected with std::invalid_argument, or a move that writes back to text that reads
// as the same move.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "fuzz/check.h"
#include "game/move.h"

using namespace ataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Move move;
  try {
    move = parse_move(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  FUZZ_CHECK(move.is_pass() || (move.to < kNumSquares && move.from < kNumSquares));
  FUZZ_CHECK(parse_move(to_string(move)) == move);
  return 0;
}
