#include "players/level_player_impl.h"

namespace ataxx {

SkillSettings skill_settings(int skill) {
  if (skill < 0 || skill > kMaxSkill)
    throw std::invalid_argument("skill " + std::to_string(skill) + " is not from 0 to " + std::to_string(kMaxSkill));
  const double s = static_cast<double>(skill) / kMaxSkill;
  return {.visits = static_cast<int>(std::lround(std::exp2(10 * s))),
          .temperature = static_cast<float>(2.0 * (1 - s) * (1 - s))};
}

int skill_for_elo(int elo) {
  if (elo <= kLevelRatings.front().elo) return kLevelRatings.front().skill;
  for (std::size_t i = 1; i < kLevelRatings.size(); ++i) {
    const LevelRating& low = kLevelRatings[i - 1];
    const LevelRating& high = kLevelRatings[i];
    if (elo <= high.elo)
      return low.skill + static_cast<int>(std::lround(static_cast<double>(elo - low.elo) * (high.skill - low.skill) /
                                                      (high.elo - low.elo)));
  }
  return kLevelRatings.back().skill;
}

#define ATAXX_INSTANTIATE(G) template class BasicLevelPlayer<G>;
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
