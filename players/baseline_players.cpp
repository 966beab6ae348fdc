#include "players/baseline_players_impl.h"

namespace ataxx {

#define ATAXX_INSTANTIATE_BASELINES(G)                \
  template class BasicRandomPlayer<G>;               \
  template class BasicGreedyPlayer<G>;               \
  template void register_builtin_players<G>(std::map<std::string, BasicPlayerFactory<G>>&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE_BASELINES)
#undef ATAXX_INSTANTIATE_BASELINES

}  // namespace ataxx
