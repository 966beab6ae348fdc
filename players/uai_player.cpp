#include "players/uai_player_impl.h"

namespace ataxx {

#define ATAXX_INSTANTIATE(G) template std::unique_ptr<BasicPlayer<G>> make_uai_player<G>(PlayerSpec& spec);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
