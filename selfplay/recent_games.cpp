#include "selfplay/recent_games.h"

namespace ataxx {

bool RecentGames::add(int games, int plies, int draws) {
  chunks_.push_back({games, plies, draws});
  games_ += games, plies_ += plies, draws_ += draws;
  while (games_ - chunks_.front().games >= kGames) {
    const Chunk& oldest = chunks_.front();
    games_ -= oldest.games, plies_ -= oldest.plies, draws_ -= oldest.draws;
    chunks_.pop_front();
  }
  if (draw_share() < kDrawShareCleared) warned_ = false;
  if (warned_ || games_ < kGames || draw_share() < kDrawShareWarned) return false;
  warned_ = true;
  return true;
}

}  // namespace ataxx
