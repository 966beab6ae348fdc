#include "selfplay/selfplay_worker_impl.h"

namespace ataxx {

void SelfPlayStats::add(const SelfPlayStats& o) {
  games += o.games;
  plies += o.plies;
  draws += o.draws;
  resigned += o.resigned;
  no_resign_games += o.no_resign_games;
  would_resign += o.would_resign;
  false_resignations += o.false_resignations;
  simulations += o.simulations;
}

#define ATAXX_SELFPLAY(G)                                                                                     \
  template BasicTrainingSample<G> policy_sample<G>(const G::Position&, const BasicSearchResult<G>&);          \
  template class BasicSelfPlayWorker<G>;                                                                      \
  template SelfPlayStats play_selfplay_games<G>(const RunConfig&, const std::vector<SelfPlayStart<G>>&,       \
                                                std::uint64_t, BasicEvaluator<G>&, int, const std::atomic<bool>&, \
                                                const std::function<void(BasicSelfPlayBatch<G>&&)>&,           \
                                                const BasicSelfPlayWorker<G>::GameWatcher&);
ATAXX_FOR_EACH_GAME(ATAXX_SELFPLAY)
#undef ATAXX_SELFPLAY

}  // namespace ataxx
