// Levels a person can beat (UAI's UCI_LimitStrength, the browser view's levels): a searching
// player cut to a few visits, its move drawn from what its search found and from its policy at a
// temperature, so that it misses what a weaker player misses, more often and by more the lower the
// level, rather than playing its best moves and throwing games at random.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <random>

#include "players/player.h"

namespace ataxx {

inline constexpr int kMaxSkill = 100;

// What a skill from 0 (barely above random) to kMaxSkill (the search's own move after 1,024
// visits) plays with.
struct SkillSettings {
  int visits = 1;           // the most a move searches (a time or node limit from outside may cut it)
  float temperature = 0;    // of the draw among the moves; 0: the search's move
};
SkillSettings skill_settings(int skill);

// The ratings of the measured skills with the shipped 7x7 net, on the scale where random is 0 Elo
// (docs/levels.md has the matches): what UCI_Elo asks for.
struct LevelRating {
  int skill;
  int elo;
};
inline constexpr std::array<LevelRating, 14> kLevelRatings = {{
    {0, 420},
    {10, 608},
    {20, 913},
    {30, 953},
    {40, 1239},
    {45, 1491},
    {50, 1831},
    {55, 2262},
    {60, 2779},
    {65, 3078},
    {70, 3211},
    {80, 3573},
    {90, 3927},
    {100, 4296}}};

// The skill whose rating is elo, between the measured ones (from the lowest to the highest).
int skill_for_elo(int elo);

template <typename G>
class BasicLevelPlayer final : public BasicPlayer<G> {
 public:
  using Game = typename G::Game;
  using Move = typename G::Move;
  using MoveReport = BasicMoveReport<G>;

  // searcher: a player whose reports list every root move with its visits and prior (MCTS).
  BasicLevelPlayer(std::unique_ptr<BasicPlayer<G>> searcher, int skill);
  void new_game(std::uint64_t seed) override;
  void check_plays(const typename G::Position& start) const override { searcher_->check_plays(start); }
  Move choose_move(const Game& game) override;
  MoveReport last_report() const override { return report_; }  // its pv starts with the move played

 private:
  std::unique_ptr<BasicPlayer<G>> searcher_;
  SkillSettings settings_;
  std::mt19937_64 rng_;
  MoveReport report_;
};

// Compiled once, in level_player.cpp, for each game.
#define ATAXX_DECLARE(G) extern template class BasicLevelPlayer<G>;
ATAXX_FOR_EACH_GAME(ATAXX_DECLARE)
#undef ATAXX_DECLARE

}  // namespace ataxx
