#include "games/schataxx/play.h"

#include <algorithm>
#include <cmath>

#include "games/core/splitmix.h"

namespace ataxx::schataxx {

std::uint64_t transposition_key(const Position& pos) {
  std::uint64_t state = static_cast<std::uint64_t>(pos.plies_since_drop()) << 32 | static_cast<std::uint32_t>(pos.ply());
  return pos.hash() ^ zobrist::splitmix64(state);
}

int Play::expected_moves_left(const Position& pos) {
  constexpr int kMinMovesLeft = 3;
  constexpr int kMaxMovesLeft = 152;
  if (pos.variant() == Variant::kUnlimited) {
    // Nearly every move drops a soldier: the mover's moves left are 0.93 x empty squares - 1.8
    // (tools/moves_left.py --schataxx-unlimited: 20 games of the shipped net against itself at
    // 100 ms a move, 76 to 135 plies but for three lost in the opening).
    constexpr double kMovesLeftPerEmpty = 0.93, kMovesLeftAtFull = -1.8;
    const int empties = Position::kSquares - popcount(pos.occupied());
    return std::clamp(static_cast<int>(std::lround(kMovesLeftPerEmpty * empties + kMovesLeftAtFull)), kMinMovesLeft,
                      kMaxMovesLeft);
  }
  // Fitted (tools/moves_left.py --schataxx) to 45 games of the shipped net against itself at 100 ms
  // a move from the 2-ply suite (5 to 565 plies): each drop restarts the count of plies that ends
  // the game, so the men left to drop, not the empty squares, say how long it goes on. With up to 7
  // men in both stocks the mover's moves left are about 18.3 a man + 12.0; with more, 152 on
  // average. With none, the plies left before the count ends the game bound them.
  constexpr double kMovesPerStockMan = 18.3, kMovesAtEmptyStocks = 12.0;
  int men = 0;
  for (const Color color : {kWhite, kBlack})
    for (int i = 0; i < kStockTypes; ++i) men += pos.stock(color, stock_type(i));
  int moves = std::min(kMaxMovesLeft, static_cast<int>(std::lround(kMovesPerStockMan * men + kMovesAtEmptyStocks)));
  if (men == 0) moves = std::min(moves, (Rules{}.ply_limit - pos.plies_since_drop() + 1) / 2);
  return std::max(kMinMovesLeft, moves);
}

float Play::heuristic_expectation(const Position& pos) {
  return std::tanh(static_cast<float>(pos.area(pos.side_to_move()) - pos.area(~pos.side_to_move())) / 8);
}

}  // namespace ataxx::schataxx
