#include "game/perft.h"

namespace ataxx {

std::uint64_t perft(const Position& pos, int depth, int halfmove_limit) {
  if (depth == 0) return 1;
  const Color us = pos.side_to_move();
  if (!pos.pieces(us) || !pos.pieces(~us)) return 0;
  if (halfmove_limit > 0 && pos.halfmove_clock() >= halfmove_limit) return 0;
  if (depth == 1) {
    // Bulk counting: the last ply's moves are counted, not made.
    const int count = pos.count_moves();
    return count ? count : pos.can_move(~us) ? 1 : 0;
  }
  MoveList moves;
  pos.generate_moves(moves);
  std::uint64_t nodes = 0;
  for (const Move move : moves) {
    Position child = pos;
    child.make_move(move);
    nodes += perft(child, depth - 1, halfmove_limit);
  }
  return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_split(const Position& pos, int depth, int halfmove_limit) {
  std::vector<std::pair<Move, std::uint64_t>> split;
  if (depth < 1 || pos.outcome({.halfmove_limit = halfmove_limit, .repetition_limit = 0}).is_over()) return split;
  MoveList moves;
  pos.generate_moves(moves);
  for (const Move move : moves) {
    Position child = pos;
    child.make_move(move);
    split.emplace_back(move, perft(child, depth - 1, halfmove_limit));
  }
  return split;
}

}  // namespace ataxx
