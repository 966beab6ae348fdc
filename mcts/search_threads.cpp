#include "mcts/search_threads_impl.h"

namespace ataxx {

#define ATAXX_INSTANTIATE(G) \
  template void run_search_threads<G>(BasicSearch<G>&, BasicEvaluator<G>&, int, const std::function<void()>&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
