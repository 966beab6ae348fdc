// The template definitions of players/network_player.h: included by network_player.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "players/network_player.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "nn/direct_convolution.h"
#include "players/level_player_impl.h"
#include "players/mcts_player.h"

namespace ataxx {

template <typename G>
BasicNetworkPlayerOptions<G>::BasicNetworkPlayerOptions() {
  search.visits = 200;
  search.policy_temperature = G::Play::kPolicyTemperature;
  search.lcb_stdevs = G::Play::kLcbStdevs;
  search.solver = G::Play::kSolver;
  inference.bf16 = bf16_by_default(inference.device);
  inference.int8 = int8_by_default(inference.device);
  inference.deadline_us = 0;  // callers are searches waiting on their leaves: never hold a batch open
  inference.threads = server_threads_by_default(inference.device);
}

template <typename G>
void BasicNetworkPlayerOptions<G>::use_search_threads(int threads) {
  search_threads = threads;
  search.leaves_per_round = leaves_per_round_by_default(threads);
}

template <typename G>
BasicNetworkPlayerOptions<G> read_network_player_options(PlayerSpec& spec) {
  BasicNetworkPlayerOptions<G> options;
  options.model = spec.get_string("model", "");
  if (options.model.empty()) throw std::invalid_argument("player '" + spec.text() + "': nn needs model=FILE");
  options.use_search_threads(spec.get_int("search_threads", options.search_threads, 1, 64));
  options.c_puct_by_board = !spec.has("cpuct");
  if (spec.has("skill")) options.skill = spec.get_int("skill", kMaxSkill, 0, kMaxSkill);
  options.search = read_search_params<G>(spec, options.search);
  InferenceOptions& inference = options.inference;
  inference.device = spec.get_string("device", inference.device);
  inference.bf16 = spec.get_int("bf16", bf16_by_default(inference.device), 0, 1) == 1;
  inference.int8 = spec.get_int("int8", int8_by_default(inference.device), 0, 1) == 1;
  inference.cuda_graphs = spec.get_int("cuda_graphs", inference.cuda_graphs, 0, 1) == 1;
  inference.max_batch = spec.get_int("max_batch", inference.max_batch, 1, 65536);
  inference.cache_entries = spec.get_int("cache", inference.cache_entries, 0, 1 << 26);
  inference.threads = spec.get_int("threads", server_threads_by_default(inference.device), 0, 64);
  inference.random_symmetry = spec.get_int("symmetry", inference.random_symmetry, 0, 1) == 1;
  return options;
}

template <typename G>
std::unique_ptr<BasicMctsPlayer<G>> make_search_player(const BasicNetworkPlayerOptions<G>& options) {
  auto server = shared_inference_server<G>(options.model, options.inference);
  BasicSearchParams<G> search = options.search;
  search.rules = G::rules_from(server->info().rules);
  auto player = std::make_unique<BasicMctsPlayer<G>>(search, std::move(server), options.search_threads);
  if (options.c_puct_by_board) player->set_c_puct_of(play_c_puct<G>);
  return player;
}

template <typename G>
std::unique_ptr<BasicPlayer<G>> make_network_player(const BasicNetworkPlayerOptions<G>& options) {
  auto player = make_search_player(options);
  if (options.skill) return std::make_unique<BasicLevelPlayer<G>>(std::move(player), *options.skill);
  return player;
}

template <typename G>
std::shared_ptr<BasicInferenceServer<G>> shared_inference_server(const std::string& model,
                                                                 const InferenceOptions& options) {
  static std::mutex mutex;  // guards servers; a model loads under it, so a second caller waits for the first
  static std::map<std::pair<std::string, InferenceOptions>, std::weak_ptr<BasicInferenceServer<G>>> servers;
  std::lock_guard lock(mutex);
  std::erase_if(servers, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<BasicInferenceServer<G>>& slot = servers[{model, options}];
  if (auto server = slot.lock()) return server;
  auto server = std::make_shared<BasicInferenceServer<G>>(model, options);
  slot = server;
  return server;
}

}  // namespace ataxx
