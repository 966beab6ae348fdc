#include "match/openings.h"

#include <cstdlib>

#include "games/ataxx/game.h"

namespace ataxx {

std::vector<Position> balanced_openings(const std::vector<Position>& openings, Player& judge, int max_cp,
                                        std::size_t count) {
  std::vector<Position> balanced;
  for (const Position& pos : openings) {
    if (balanced.size() >= count) break;
    judge.new_game(balanced.size());
    judge.choose_move(Game(pos));
    if (std::abs(judge.last_report().score_cp) <= max_cp) balanced.push_back(pos);
  }
  return balanced;
}

}  // namespace ataxx
