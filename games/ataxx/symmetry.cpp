#include "games/ataxx/symmetry.h"

namespace ataxx {

Bitboard transform_bitboard(const Board& board, int symmetry, Bitboard b) {
  Bitboard out = 0;
  while (b) out |= bit(board.symmetries[symmetry][pop_lsb(b)]);
  return out;
}

Move transform_move(const Board& board, int symmetry, Move move) {
  if (move.is_pass()) return move;
  return Move::jump(board.symmetries[symmetry][move.from], board.symmetries[symmetry][move.to]);
}

Position transform_position(int symmetry, const Position& pos) {
  const Board& board = pos.board();
  return Position::from_bitboards(board, transform_bitboard(board, symmetry, pos.pieces(Color::kX)),
                                  transform_bitboard(board, symmetry, pos.pieces(Color::kO)),
                                  transform_bitboard(board, symmetry, pos.gaps()), pos.side_to_move(),
                                  pos.halfmove_clock(), pos.fullmove_number());
}

SymmetryList augmentation_symmetries(const Position& pos) {
  const Board& board = pos.board();
  SymmetryList list;
  for (int s = 0; s < board.num_symmetries; ++s)
    if (!board.hexagonal || transform_bitboard(board, s, pos.gaps()) == pos.gaps())
      list.symmetries[list.count++] = static_cast<std::uint8_t>(s);
  return list;
}

}  // namespace ataxx
