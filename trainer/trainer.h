// Gradient steps on the network from the replay buffer. Plain C++ header; torch inside.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "nn/model_info.h"
#include "config/run_config.h"
#include "trainer/replay_buffer.h"

namespace ataxx {

struct Losses {
  double total = 0, policy = 0, value = 0, ownership = 0, piece_diff = 0, soft_policy = 0;
  int steps = 0;
};

struct TrainingBatch;  // trainer/batch.h

// What the trainer needs of its run's game.
struct TrainedGame {
  std::string_view name;  // as model files name it
  bool has_boards = false;
  NetworkIo io;           // of the run's network
  NetworkIoOf io_of;      // what reads its checkpoints and play files (init_from, the teacher)
};
template <GameType G>
TrainedGame trained_game(const BoardSet& boards) {
  return {G::kName, G::kHasBoards, make_encoder<G>(boards).io(), network_io_of<G>};
}

// The learning rate of the step after `step`, when run_share of the run's wall time is used:
// a linear warm-up, then learning_rate, then learning_rate x lr_drop_factor from lr_drop_at on.
double scheduled_learning_rate(const RunConfig::Training& t, std::int64_t step, double run_share);

class Trainer {
 public:
  // The state in checkpoint_path when it is not empty, else a new network: the weights of the
  // config's network.init_from play file where it names one, else random ones.
  Trainer(const RunConfig& config, const std::string& config_yaml, const std::string& checkpoint_path,
          const TrainedGame& game);
  ~Trainer();

  // The state in checkpoint_path when it holds more steps than this one's (a run's state where
  // a session stopped between two candidates); returns whether it was taken.
  bool resume_if_further(const std::string& checkpoint_path);

  // `steps` steps at the scheduled learning rate for run_share of the run's wall time used. G is
  // the run's game (std::logic_error otherwise). Defined in trainer_impl.h.
  template <typename G>
  Losses train(const BasicReplayBuffer<G>& buffer, int steps, double run_share, std::mt19937_64& rng);
  std::int64_t step() const;
  void save_checkpoint(const std::string& path) const;
  void save_play_file(const std::string& path, const ModelInfo& info) const;

 private:
  // A batch of batch_size samples, search_value_share of each value target the search's.
  using BatchSampler = std::function<TrainingBatch(int batch_size, float search_value_share)>;
  Losses train_batches(std::string_view game, int steps, double run_share, const BatchSampler& sample);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ataxx
