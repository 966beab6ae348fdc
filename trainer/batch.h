// Training batches: samples encoded under a board symmetry, with their targets. Included only
// inside trainer/ (and its tests): torch.
#pragma once

#include <torch/torch.h>

#include <random>
#include <span>

#include "nn/encoding.h"
#include "selfplay/training_data.h"

namespace ataxx {

class ReplayBuffer;

// C is the encoding's canvas; every board's cells sit on it as Encoding places them.
struct TrainingBatch {
  torch::Tensor input;              // [N, kInputPlanes, C, C]
  torch::Tensor policy_indices;     // [N, K] (long): the policy entries of the visited moves, K the most in a row
  torch::Tensor policy_targets;     // [N, K]: their visit shares (0 for the padding)
  torch::Tensor wdl;                // [N, 3]: win, draw, loss target for the side to move
  torch::Tensor ownership;          // [N, C * C]: 1 own, -1 the opponent's, 0 empty at the end, side to move's view
  torch::Tensor board_mask;         // [N, C * C]: 1 on the board's cells
  torch::Tensor piece_diff;         // [N]: final (own - opponent) pieces / cells of the board
  torch::Tensor final_board_known;  // [N]: 1, or 0 where ownership and piece_diff are unknown (resigned)
};

// Sample i under symmetry symmetries[i] of its board (see transform_position). The value target
// is the game's result, search_value_share of it replaced by the root search's value (a
// short-term value target: less noise from the moves played after the sample).
TrainingBatch assemble_batch(const Encoding& encoding, std::span<const TrainingSample* const> samples,
                             std::span<const int> symmetries, float search_value_share = 0.0f);
// `size` samples drawn from the replay window, each under a random one of its augmentation_symmetries.
TrainingBatch sample_batch(const Encoding& encoding, const ReplayBuffer& buffer, int size, float search_value_share,
                           std::mt19937_64& rng);

}  // namespace ataxx
