// The network as a player: MCTS whose leaves go to an inference server, reached through the
// search's Evaluator seam. Spec: `nn:model=FILE[,visits=N,device=cpu|cuda|cuda:N,bf16=0|1,
// cuda_graphs=0|1,threads=N,batch_threads=N,max_batch=N,cache=ENTRIES, the mcts options]`.
#pragma once

#include <memory>
#include <string>

#include "mcts/search.h"
#include "nn/inference_server.h"
#include "nn/inference_options.h"
#include "players/player.h"

namespace ataxx {

struct NetworkPlayerOptions {
  std::string model;    // play file
  SearchParams search;  // its rules are replaced by the model's
  InferenceOptions inference;
  NetworkPlayerOptions();
};

// Reads the options of an `nn` spec.
NetworkPlayerOptions read_network_player_options(PlayerSpec& spec);
// The spec fields that set `options` (all but deadline_us and cpu_path, which specs leave alone).
std::string inference_spec(const InferenceOptions& options);
// Throws ModelFileError for a bad model, std::invalid_argument for bad options.
std::unique_ptr<Player> make_network_player(const NetworkPlayerOptions& options);

// One inference server per model file and options while any player holds it: every game of a
// match, and every match at once, batches its leaves into the same server, and the model is
// loaded once.
std::shared_ptr<InferenceServer> shared_inference_server(const std::string& model, const InferenceOptions& options);

}  // namespace ataxx
