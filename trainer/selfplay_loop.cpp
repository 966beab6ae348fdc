#include "trainer/selfplay_loop_impl.h"

namespace ataxx {

int busy_inference_threads(const RunConfig& config) {
  const auto& s = config.selfplay;
  const std::int64_t in_flight = std::int64_t{s.threads} * s.concurrent_games * s.leaves_per_round;
  const std::int64_t batches = (in_flight + config.inference.max_batch - 1) / config.inference.max_batch;
  return static_cast<int>(std::min<std::int64_t>(batches, config.inference.threads));
}

#define ATAXX_INSTANTIATE(G)                                                                                      \
  template SelfPlaySession play_selfplay<G>(const RunConfig&, const RunDirectory&, const SelfPlayLimits&, spdlog::logger&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
