// Game-record chunks: rejected with std::runtime_error, or samples that batch assembly can use
// under every symmetry without leaving the policy.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "fuzz/check.h"
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
  for (const TrainingSample& s : samples) {
    FUZZ_CHECK(s.result >= -1 && s.result <= 1);
    for (int symmetry = 0; symmetry < kNumSymmetries; ++symmetry) {
      (void)transform_position(symmetry, s.position);
      for (const auto& [index, visits] : s.visits) {
        FUZZ_CHECK(index < kPolicySize && visits > 0);
        const int image = policy_index(transform_move(symmetry, move_from_policy_index(index)));
        FUZZ_CHECK(image >= 0 && image < kPolicySize);
      }
    }
  }
  return 0;
}
