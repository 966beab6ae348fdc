#include "players/level_player_impl.h"

namespace ataxx {

SkillSettings skill_settings(int skill) {
  if (skill < 0 || skill > kMaxSkill)
    throw std::invalid_argument("skill " + std::to_string(skill) + " is not from 0 to " + std::to_string(kMaxSkill));
  const double s = static_cast<double>(skill) / kMaxSkill;
  return {.visits = static_cast<int>(std::lround(std::exp2(10 * s))),
          .temperature = static_cast<float>(2.0 * (1 - s) * (1 - s))};
}

#define ATAXX_INSTANTIATE(G) template class BasicLevelPlayer<G>;
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
