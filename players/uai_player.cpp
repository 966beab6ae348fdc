#include <stdexcept>

#include "players/uai_player_impl.h"

namespace ataxx {

bool uai_spec_ponders(std::string_view text) {
  try {
    PlayerSpec spec(text);
    return spec.kind() == "uai" && read_ponder(spec);
  } catch (const std::invalid_argument&) {
    return false;
  }
}

#define ATAXX_INSTANTIATE(G) template std::unique_ptr<BasicPlayer<G>> make_uai_player<G>(PlayerSpec& spec);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
