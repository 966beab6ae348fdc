// Game-record chunks: rejected with std::runtime_error, or samples that batch assembly can use
// under every symmetry of their board without leaving the policy.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "fuzz/check.h"
#include "game/symmetry.h"
#include "nn/encoding.h"
#include "selfplay/training_data.h"

using namespace ataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<TrainingSample> samples;
  try {
    samples = parse_chunk(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.zst");
  } catch (const std::runtime_error&) {
    return 0;
  }
  const Encoding encoding(kMaxBoardSize);
  for (const TrainingSample& s : samples) {
    FUZZ_CHECK(s.result >= -1 && s.result <= 1);
    const Board& board = s.position.board();
    for (int symmetry = 0; symmetry < board.num_symmetries; ++symmetry) {
      (void)transform_position(symmetry, s.position);
      for (const auto& [move, visits] : s.visits) {
        FUZZ_CHECK(visits > 0);
        const int image = encoding.policy_index(board, transform_move(board, symmetry, move));
        FUZZ_CHECK(image >= 0 && image < encoding.policy_size());
      }
    }
  }
  return 0;
}
