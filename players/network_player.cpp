#include "players/network_player_impl.h"

namespace ataxx {

bool bf16_by_default(const std::string& device) { return device == "cpu" && DirectConvolution::available(Precision::kBf16); }

bool int8_by_default(const std::string& device) { return device == "cpu" && DirectConvolution::available(Precision::kInt8); }

std::string cpu_computation_by_default() {
  const char* format = int8_by_default("cpu") ? "int8" : bf16_by_default("cpu") ? "bfloat16" : "float";
  return std::string(format) + " with the " + std::string(to_string(DirectConvolution::cpu_kernels())) + " kernels";
}

int leaves_per_round_by_default(int search_threads) { return std::max(1, 8 / search_threads); }

int server_threads_by_default(const std::string& device) { return device == "cpu" ? 0 : 1; }

std::string inference_spec(const InferenceOptions& o) {
  return fmt::format("device={},bf16={:d},int8={:d},cuda_graphs={:d},threads={},max_batch={},cache={},symmetry={:d}",
                     o.device, o.bf16, o.int8, o.cuda_graphs, o.threads, o.max_batch, o.cache_entries, o.random_symmetry);
}

#define ATAXX_NETWORK_PLAYER(G)                                                                            \
  template struct BasicNetworkPlayerOptions<G>;                                                            \
  template BasicNetworkPlayerOptions<G> read_network_player_options<G>(PlayerSpec&);                       \
  template std::unique_ptr<BasicPlayer<G>> make_network_player<G>(const BasicNetworkPlayerOptions<G>&);    \
  template std::unique_ptr<BasicMctsPlayer<G>> make_search_player<G>(const BasicNetworkPlayerOptions<G>&); \
  template std::shared_ptr<BasicInferenceServer<G>> shared_inference_server<G>(const std::string&,         \
                                                                               const InferenceOptions&);
ATAXX_FOR_EACH_GAME(ATAXX_NETWORK_PLAYER)
#undef ATAXX_NETWORK_PLAYER

}  // namespace ataxx
