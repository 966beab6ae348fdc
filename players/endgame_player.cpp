#include "players/endgame_player.h"

namespace ataxx {

EndgamePlayer::EndgamePlayer(std::unique_ptr<Player> main, int max_empty, AlphaBetaPlayer::Limits endgame)
    : main_(std::move(main)), endgame_(endgame, 20),
      max_empty_(max_empty), last_(main_.get()) {}

void EndgamePlayer::new_game(std::uint64_t seed) {
  main_->new_game(seed);
  endgame_.new_game(seed);
}

void EndgamePlayer::set_limits(const MoveLimits& limits) {
  main_->set_limits(limits);
  endgame_.set_limits(limits);
}

Move EndgamePlayer::choose_move(const Game& game) {
  const bool endgame = popcount(game.position().empty()) <= max_empty_;
  last_ = endgame ? static_cast<Player*>(&endgame_) : main_.get();
  last_->on_progress(progress_);
  return last_->choose_move(game);
}

}  // namespace ataxx
