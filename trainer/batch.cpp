#include "trainer/batch.h"

#include <algorithm>
#include <cassert>

#include "nn/encoding.h"
#include "trainer/replay_buffer.h"

namespace ataxx {
namespace {

struct BatchRows {
  float* input;
  std::int64_t* policy_indices;
  float* policy_targets;
  std::int64_t policy_width;
  std::int64_t* wdl;
  float* ownership;
  float* piece_diff;
  float* final_board_known;
};

void fill_row(const TrainingSample& s, int symmetry, int i, const BatchRows& rows) {
  const Position pos = transform_position(symmetry, s.position);
  encode_position(pos, std::span<float, kInputSize>(rows.input + i * kInputSize, kInputSize));
  float total = 0;
  for (const auto& [index, visits] : s.visits) total += visits;
  for (std::size_t k = 0; k < s.visits.size(); ++k) {
    const auto [index, visits] = s.visits[k];
    const int image = policy_index(transform_move(symmetry, move_from_policy_index(index)));
    assert(image >= 0 && image < kPolicySize);
    rows.policy_indices[i * rows.policy_width + k] = image;
    rows.policy_targets[i * rows.policy_width + k] = visits / total;
  }
  rows.wdl[i] = s.result > 0 ? 0 : s.result == 0 ? 1 : 2;
  rows.final_board_known[i] = s.final_board_known ? 1.0f : 0.0f;
  if (!s.final_board_known) return;
  const bool x_to_move = pos.side_to_move() == Color::kX;
  const Bitboard own = x_to_move ? s.final_x : s.final_o;
  const Bitboard theirs = x_to_move ? s.final_o : s.final_x;
  for (Square sq = 0; sq < kNumSquares; ++sq)
    rows.ownership[i * kNumSquares + transform_square(symmetry, sq)] = (own >> sq & 1)      ? 1.0f
                                                                       : (theirs >> sq & 1) ? -1.0f
                                                                                            : 0.0f;
  rows.piece_diff[i] = static_cast<float>(popcount(own) - popcount(theirs)) / kNumSquares;
}

}  // namespace

TrainingBatch assemble_batch(std::span<const TrainingSample* const> samples, std::span<const int> symmetries) {
  const auto n = static_cast<std::int64_t>(samples.size());
  TrainingBatch b;
  b.input = torch::empty({n, kInputPlanes, kBoardSize, kBoardSize});
  std::int64_t width = 1;
  for (const TrainingSample* s : samples) width = std::max<std::int64_t>(width, s->visits.size());
  b.policy_indices = torch::zeros({n, width}, torch::kLong);
  b.policy_targets = torch::zeros({n, width});
  b.wdl = torch::empty({n}, torch::kLong);
  b.ownership = torch::zeros({n, kNumSquares});
  b.piece_diff = torch::zeros({n});
  b.final_board_known = torch::empty({n});
  const BatchRows rows{b.input.data_ptr<float>(),      b.policy_indices.data_ptr<std::int64_t>(),
                       b.policy_targets.data_ptr<float>(), width,
                       b.wdl.data_ptr<std::int64_t>(), b.ownership.data_ptr<float>(),
                       b.piece_diff.data_ptr<float>(), b.final_board_known.data_ptr<float>()};
  for (std::int64_t i = 0; i < n; ++i) fill_row(*samples[i], symmetries[i], static_cast<int>(i), rows);
  return b;
}

TrainingBatch sample_batch(const ReplayBuffer& buffer, int size, std::mt19937_64& rng) {
  std::vector<const TrainingSample*> samples(size);
  std::vector<int> symmetries(size);
  for (int i = 0; i < size; ++i) {
    samples[i] = &buffer.sample(rng);
    symmetries[i] = static_cast<int>(rng() % kNumSymmetries);
  }
  return assemble_batch(samples, symmetries);
}

}  // namespace ataxx
