// Game-record chunks of both games: rejected with std::runtime_error, or samples that batch
// assembly can use under every symmetry of their board without leaving the policy. Each input is
// read twice: as a whole chunk, and as the samples of one, compressed here (byte 0: the game's
// magic, byte 1: the number of samples, then the samples' bytes), since a mutated zstd frame
// seldom passes its checksum and would leave the sample parser unreached.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz/check.h"
#include "games/ataxx/encoding.h"
#include "games/ataxx/symmetry.h"
#include "games/schataxx/encoding.h"
#include "selfplay/training_data.h"
#include "selfplay/zstd_frame.h"

using namespace ataxx;

namespace {

void check_ataxx(std::string_view bytes) {
  std::vector<TrainingSample> samples;
  try {
    samples = parse_chunk(bytes, "fuzz.zst");
  } catch (const std::runtime_error&) {
    return;
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
}

// policy_index throws for a step no man makes: a chunk that passed must hold none.
void check_schataxx(std::string_view bytes) {
  std::vector<BasicTrainingSample<SchataxxGame>> samples;
  try {
    samples = parse_chunk<SchataxxGame>(bytes, "fuzz.zst");
  } catch (const std::runtime_error&) {
    return;
  }
  std::vector<float> planes(schataxx::kInputSize);
  for (const auto& s : samples) {
    FUZZ_CHECK(s.result >= -1 && s.result <= 1);
    for (int symmetry = 0; symmetry < 8; ++symmetry) {
      schataxx::encode(s.position.transformed(symmetry), planes);
      for (const auto& [move, visits] : s.visits) {
        FUZZ_CHECK(visits > 0);
        const int image = schataxx::policy_index(schataxx::transform_move(symmetry, move));
        FUZZ_CHECK(image >= 0 && image < schataxx::kPolicySize);
      }
    }
  }
}

std::string chunk_of_samples(std::string_view input) {
  constexpr std::array<const char*, 6> kMagics{"AXZ5", "SXZ2", "AXZ4", "SXZ1", "AXZ3", "AXZ2"};
  std::string chunk(kMagics[static_cast<unsigned char>(input[0]) % kMagics.size()], 4);
  const std::uint32_t samples = static_cast<unsigned char>(input[1]), games = samples;
  chunk.append(reinterpret_cast<const char*>(&games), 4).append(reinterpret_cast<const char*>(&samples), 4);
  return chunk.append(compress_frame(input.substr(2)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_ataxx(bytes);
  check_schataxx(bytes);
  if (size >= 2) {
    const std::string chunk = chunk_of_samples(bytes);
    check_ataxx(chunk);
    check_schataxx(chunk);
  }
  return 0;
}
