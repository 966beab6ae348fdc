#include "players/mcts_player_impl.h"

namespace ataxx {

#define ATAXX_INSTANTIATE(G)       \
  template class BasicMctsPlayer<G>; \
  template BasicSearchParams<G> read_search_params<G>(PlayerSpec&, BasicSearchParams<G>);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
