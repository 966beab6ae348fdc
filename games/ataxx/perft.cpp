#include "games/ataxx/perft.h"

namespace ataxx {

namespace {

// The leaves one ply below a side whose pieces are `own` facing `theirs`: its moves, counted
// without making them; a pass when it has none but the other side has some.
std::uint64_t leaves_below(const Board& board, Bitboard own, Bitboard theirs, Bitboard free) {
  if (!own || !theirs) return 0;
  const int count = count_moves(board, own, free);
  if (count) return count;
  return (board.dilate(board.dilate(theirs)) & free) ? 1 : 0;
}

// Perft 2 with the children's bitboards worked out from each move, no position copied or hashed
// (the last ply before the leaves is where perft spends its time).
std::uint64_t perft_2(const Position& pos, int halfmove_limit) {
  const Board& board = pos.board();
  const Color us = pos.side_to_move();
  const Bitboard own = pos.pieces(us), theirs = pos.pieces(~us), free = pos.empty();
  const bool clock_ends = halfmove_limit > 0 && pos.halfmove_clock() + 1 >= halfmove_limit;
  std::uint64_t leaves = 0;
  for (Bitboard to_set = board.dilate(own) & free; to_set;) {  // singles: the clock starts again
    const Square to = pop_lsb(to_set);
    const Bitboard captured = board.clone_targets[to] & theirs;
    leaves += leaves_below(board, theirs ^ captured, own | bit(to) | captured, free ^ bit(to));
  }
  bool jumped = false;
  for (Bitboard from_set = own; from_set;) {
    const Square from = pop_lsb(from_set);
    for (Bitboard to_set = board.jump_targets[from] & free; to_set;) {
      const Square to = pop_lsb(to_set);
      const Bitboard captured = board.clone_targets[to] & theirs;
      jumped = true;
      if (!clock_ends)  // a jump that brings the clock to its limit ends the game: no leaves
        leaves += leaves_below(board, theirs ^ captured, (own ^ bit(from)) | bit(to) | captured,
                               free ^ bit(to) ^ bit(from));
    }
  }
  if (jumped || (board.dilate(own) & free)) return leaves;
  // Nothing but the pass, legal when the other side can move; it runs the clock too.
  if (!(board.dilate(board.dilate(theirs)) & free) || clock_ends) return 0;
  return leaves_below(board, theirs, own, free);
}

}  // namespace

std::uint64_t perft(const Position& pos, int depth, int halfmove_limit) {
  if (depth == 0) return 1;
  const Color us = pos.side_to_move();
  if (!pos.pieces(us) || !pos.pieces(~us)) return 0;
  if (halfmove_limit > 0 && pos.halfmove_clock() >= halfmove_limit) return 0;
  if (depth == 1) return leaves_below(pos.board(), pos.pieces(us), pos.pieces(~us), pos.empty());
  if (depth == 2) return perft_2(pos, halfmove_limit);
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
