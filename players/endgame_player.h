// A player that hands a game's last moves to alpha-beta: positions with at most `max_empty`
// empty cells go to an alpha-beta search on material (players/alphabeta.h), which near the end
// reads the game out to its count; every other position goes to the main player (a network's MCTS).
#pragma once

#include <memory>

#include "players/alphabeta.h"
#include "players/player.h"

namespace ataxx {

class EndgamePlayer final : public Player {
 public:
  // `endgame` limits the alpha-beta where no outside limit (time, nodes, depth) is given.
  EndgamePlayer(std::unique_ptr<Player> main, int max_empty, AlphaBetaPlayer::Limits endgame);
  void new_game(std::uint64_t seed) override;
  void set_limits(const MoveLimits& limits) override;
  Move choose_move(const Game& game) override;
  MoveReport last_report() const override { return last_->last_report(); }

 private:
  std::unique_ptr<Player> main_;
  AlphaBetaPlayer endgame_;
  int max_empty_;
  Player* last_;
};

}  // namespace ataxx
