// The network as a player: MCTS whose leaves go to an inference server, reached through the
// search's Evaluator seam, for the game of its model. Spec: `nn:model=FILE[,visits=N,
// search_threads=N,device=cpu|cuda|cuda:N,bf16=0|1,int8=0|1,cuda_graphs=0|1,threads=N,max_batch=N,
// cache=ENTRIES,symmetry=0|1 (each leaf seen under a random symmetry),skill=0..100, the mcts options]`; bf16
// and int8 default to bf16_by_default(device) and int8_by_default(device); where both are on, int8.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mcts/search.h"
#include "nn/inference_options.h"
#include "nn/inference_server.h"
#include "players/mcts_player.h"
#include "players/player.h"

namespace ataxx {

// The c_puct of a network player's search of a position unless its spec says `cpuct`: the
// game's (G::Play), else the search's.
template <GameType G>
float play_c_puct(const typename G::Position& pos) {
  return G::Play::c_puct(pos).value_or(BasicSearchParams<G>().c_puct);
}

template <typename G = DefaultGame>
struct BasicNetworkPlayerOptions {
  std::string model;                // play file
  BasicSearchParams<G> search;      // its rules are replaced by the model's
  int search_threads = 1;           // threads that search the tree at once, each with its own batches
  bool c_puct_by_board = true;      // play_c_puct<G> of each root in search.c_puct's place
  std::optional<int> skill;         // a level a person can beat (players/level_player.h); none: full strength
  InferenceOptions inference;
  BasicNetworkPlayerOptions();
  // Searches on `threads` threads, each selecting leaves_per_round_by_default(threads) a round.
  void use_search_threads(int threads);
};
using NetworkPlayerOptions = BasicNetworkPlayerOptions<DefaultGame>;

// Whether a player on `device` searches in bfloat16 when its spec does not say: on the CPU where
// the processor has AVX512-BF16 (the direct convolutions' bfloat16 path, docs/experiments.md),
// never on a GPU unless asked.
bool bf16_by_default(const std::string& device);
// The same for 8-bit integers: on the CPU where the processor has AVX2, AVX-VNNI or AVX512-VNNI
// (docs/experiments.md).
bool int8_by_default(const std::string& device);
// How a CPU player computes by default, for its users to read: "int8 with the avx2 kernels".
std::string cpu_computation_by_default();
// Leaves a round each of a player's search threads selects unless its spec says `batch`: 8 in
// flight in all (at 100 ms a move on the CPU, 8 a round beat 4 at one thread, and two threads of
// 4 beat two of 8; docs/experiments.md).
int leaves_per_round_by_default(int search_threads);
// Server threads of a player's inference: none on the CPU, where the search runs its own batches
// (a hand-off to a server thread and back each round cost 29 % of the nodes per second with a
// match on the other core, docs/experiments.md); one on a GPU.
int server_threads_by_default(const std::string& device);

// Reads the options of an `nn` spec.
template <typename G = DefaultGame>
BasicNetworkPlayerOptions<G> read_network_player_options(PlayerSpec& spec);
// The spec fields that set `options` (all but deadline_us and cpu_path, which specs leave alone).
std::string inference_spec(const InferenceOptions& options);
// Throws ModelFileError for a bad model or one of another game, std::invalid_argument for bad
// options.
template <typename G>
std::unique_ptr<BasicPlayer<G>> make_network_player(const BasicNetworkPlayerOptions<G>& options);
// The same at full strength (options.skill left aside), as the tree search it is: for callers that
// read its tree.
template <typename G>
std::unique_ptr<BasicMctsPlayer<G>> make_search_player(const BasicNetworkPlayerOptions<G>& options);

// One inference server per model file and options while any player holds it: every game of a
// match, and every match at once, batches its leaves into the same server, and the model is
// loaded once.
template <typename G = DefaultGame>
std::shared_ptr<BasicInferenceServer<G>> shared_inference_server(const std::string& model,
                                                                 const InferenceOptions& options);

}  // namespace ataxx
