#include "players/alphabeta_impl.h"

namespace ataxx {

AlphaBetaLimits read_alphabeta_limits(PlayerSpec& spec, int default_depth) {
  AlphaBetaLimits limits;
  limits.time_ms = spec.get_int("time", 0, 0, 3'600'000);
  limits.depth = spec.get_int("depth", limits.time_ms > 0 ? 64 : default_depth, 1, 64);
  return limits;
}

#define ATAXX_INSTANTIATE(G) template class BasicAlphaBetaPlayer<G>;
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
