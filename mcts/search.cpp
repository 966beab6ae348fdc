#include "mcts/search_impl.h"

namespace ataxx {

// The search of each game, compiled here once.
#define ATAXX_INSTANTIATE_SEARCH(G)                                                         \
  template struct BasicSearchResult<G>;                                                     \
  template class BasicSearch<G>;                                                            \
  template void search_round<G>(std::span<BasicSearch<G>* const>, BasicEvaluator<G>&,       \
                                std::vector<BasicEvalRequest<G>>&);                         \
  template void run_searches<G>(std::span<BasicSearch<G>* const>, BasicEvaluator<G>&,       \
                                const std::function<void()>&);                              \
  template G::Move choose_move<G>(const BasicSearchResult<G>&, float, std::mt19937_64&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE_SEARCH)
#undef ATAXX_INSTANTIATE_SEARCH

}  // namespace ataxx
