// Training batches: samples encoded under a board symmetry, with their targets. Included only
// inside trainer/ (and its tests): torch.
#pragma once

#include <torch/torch.h>

#include <random>
#include <span>

#include "nn/game_encoder.h"
#include "selfplay/training_data.h"

namespace ataxx {

template <typename G>
class BasicReplayBuffer;

// C is the game's canvas, P its input planes; every board's cells sit on the canvas as the
// game's encoder places them.
struct TrainingBatch {
  torch::Tensor input;              // [N, P, C, C]
  torch::Tensor policy_indices;     // [N, K] (long): the policy entries of the visited moves, K the most in a row
  torch::Tensor policy_targets;     // [N, K]: their visit shares (0 for the padding)
  torch::Tensor wdl;                // [N, 3]: win, draw, loss target for the side to move
  torch::Tensor ownership;          // [N, C * C]: 1 own, -1 the opponent's, 0 empty at the end, side to move's view
  torch::Tensor board_mask;         // [N, C * C]: 1 on the board's cells
  torch::Tensor piece_diff;         // [N]: final (own - opponent) pieces / cells of the board
  torch::Tensor final_board_known;  // [N]: 1, or 0 where ownership and piece_diff are unknown (resigned)
};

// Sample i under symmetry symmetries[i] of its board (GameEncoder<G>::transformed). The value
// target is the game's result, search_value_share of it replaced by the root search's value (a
// short-term value target: less noise from the moves played after the sample). Throws
// std::invalid_argument for a sample the encoder's network does not play.
template <typename G>
TrainingBatch assemble_batch(const GameEncoder<G>& encoder, std::span<const BasicTrainingSample<G>* const> samples,
                             std::span<const int> symmetries, float search_value_share = 0.0f);
// `size` samples drawn from the replay window, each under a random one of its augmentations.
template <typename G>
TrainingBatch sample_batch(const GameEncoder<G>& encoder, const BasicReplayBuffer<G>& buffer, int size,
                           float search_value_share, std::mt19937_64& rng);

}  // namespace ataxx
