// The template definitions of trainer/batch.h: included by batch.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "trainer/batch.h"

#include <algorithm>

#include "trainer/replay_buffer.h"

namespace ataxx {
namespace {

template <typename G>
struct BatchRows {
  const GameEncoder<G>& encoder;
  float* input;
  std::int64_t* policy_indices;
  float* policy_targets;
  std::int64_t policy_width;
  float* wdl;
  float search_value_share;
  float* ownership;
  float* board_mask;
  float* piece_diff;
  float* final_board_known;
};

template <typename G>
void fill_row(const BasicTrainingSample<G>& s, int symmetry, int i, const BatchRows<G>& rows) {
  const GameEncoder<G>& encoder = rows.encoder;
  const NetworkIo io = encoder.io();
  const auto pos = encoder.transformed(symmetry, s.position);
  const std::size_t size = io.input_size();
  encoder.encode(pos, {rows.input + i * size, size});
  float total = 0;
  for (const auto& [move, visits] : s.visits) total += visits;
  for (std::size_t k = 0; k < s.visits.size(); ++k) {
    const auto [move, visits] = s.visits[k];
    rows.policy_indices[i * rows.policy_width + k] = encoder.policy_index(pos, encoder.transformed(symmetry, s.position, move));
    rows.policy_targets[i * rows.policy_width + k] = visits / total;
  }
  // The game's result, blended with the search's value at the root (which has no draw share).
  float* wdl = rows.wdl + 3 * i;
  const float share = rows.search_value_share;
  wdl[0] = (1 - share) * (s.result > 0) + share * (1 + s.root_value) / 2;
  wdl[1] = (1 - share) * (s.result == 0);
  wdl[2] = (1 - share) * (s.result < 0) + share * (1 - s.root_value) / 2;
  const int cells = G::cells(s.position);
  float* mask = rows.board_mask + i * io.area();
  for (int sq = 0; sq < cells; ++sq) mask[encoder.canvas_cell(symmetry, s.position, sq)] = 1.0f;
  rows.final_board_known[i] = s.final_board_known ? 1.0f : 0.0f;
  if (!s.final_board_known) return;
  const bool x_to_move = pos.side_to_move() == Color::kX;
  const Bitboard own = x_to_move ? s.final_x : s.final_o;
  const Bitboard theirs = x_to_move ? s.final_o : s.final_x;
  float* ownership = rows.ownership + i * io.area();
  for (int sq = 0; sq < cells; ++sq)
    ownership[encoder.canvas_cell(symmetry, s.position, sq)] = (own >> sq & 1)      ? 1.0f
                                                               : (theirs >> sq & 1) ? -1.0f
                                                                                    : 0.0f;
  rows.piece_diff[i] = static_cast<float>(popcount(own) - popcount(theirs)) / cells;
}

}  // namespace

template <typename G>
TrainingBatch assemble_batch(const GameEncoder<G>& encoder, std::span<const BasicTrainingSample<G>* const> samples,
                             std::span<const int> symmetries, float search_value_share) {
  const auto n = static_cast<std::int64_t>(samples.size());
  const NetworkIo io = encoder.io();
  const int c = io.canvas;
  TrainingBatch b;
  b.input = torch::empty({n, io.input_planes, c, c});
  std::int64_t width = 1;
  for (const BasicTrainingSample<G>* s : samples) width = std::max<std::int64_t>(width, s->visits.size());
  b.policy_indices = torch::zeros({n, width}, torch::kLong);
  b.policy_targets = torch::zeros({n, width});
  b.wdl = torch::empty({n, 3});
  b.ownership = torch::zeros({n, c * c});
  b.board_mask = torch::zeros({n, c * c});
  b.piece_diff = torch::zeros({n});
  b.final_board_known = torch::empty({n});
  const BatchRows<G> rows{encoder,
                       b.input.data_ptr<float>(),
                       b.policy_indices.data_ptr<std::int64_t>(),
                       b.policy_targets.data_ptr<float>(),
                       width,
                       b.wdl.data_ptr<float>(),
                       search_value_share,
                       b.ownership.data_ptr<float>(),
                       b.board_mask.data_ptr<float>(),
                       b.piece_diff.data_ptr<float>(),
                       b.final_board_known.data_ptr<float>()};
  for (std::int64_t i = 0; i < n; ++i) fill_row(*samples[i], symmetries[i], static_cast<int>(i), rows);
  return b;
}

template <typename G>
TrainingBatch sample_batch(const GameEncoder<G>& encoder, const BasicReplayBuffer<G>& buffer, int size,
                           float search_value_share, std::mt19937_64& rng) {
  std::vector<const BasicTrainingSample<G>*> samples(size);
  std::vector<int> symmetries(size);
  for (int i = 0; i < size; ++i) {
    samples[i] = &buffer.sample(rng);
    const SymmetryList allowed = encoder.augmentations(samples[i]->position);
    symmetries[i] = allowed.symmetries[rng() % allowed.count];
  }
  return assemble_batch<G>(encoder, samples, symmetries, search_value_share);
}

}  // namespace ataxx
