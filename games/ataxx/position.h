// An Ataxx position on any board of the family: the board, bitboards for both colours and the
// gaps, side to move, move clocks and an incrementally updated Zobrist hash. Copy-make: positions
// are small and trivially copyable.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "games/ataxx/board.h"
#include "games/ataxx/move.h"
#include "games/core/outcome.h"
#include "games/core/splitmix.h"

namespace ataxx {

namespace zobrist {
struct Keys {
  std::uint64_t piece[2][kMaxCells];
  std::uint64_t gap[kMaxCells];
  std::uint64_t side_o;
  std::uint64_t board[kNumBoards];  // the same bits on two boards are two positions
};
inline constexpr Keys make_keys() {
  Keys keys{};
  std::uint64_t state = 0x41746178785a6fULL;
  for (auto& colour : keys.piece)
    for (auto& key : colour) key = splitmix64(state);
  for (auto& key : keys.gap) key = splitmix64(state);
  keys.side_o = splitmix64(state);
  for (auto& key : keys.board) key = splitmix64(state);
  keys.board[static_cast<int>(BoardId::k7x7)] = 0;  // 7x7 hashes stay as they were
  return keys;
}
inline constexpr Keys kKeys = make_keys();
}  // namespace zobrist

// Moves other than the pass for the side with `own` pieces: singles (one per destination) and jumps.
int count_moves(const Board& board, Bitboard own, Bitboard free);

class Position {
 public:
  static constexpr std::string_view kStartFen = "x5o/7/7/7/7/7/o5x x 0 1";

  Position() = default;  // an empty 7x7 board, x to move
  static Position startpos(const Board& board = board_7x7()) { return from_fen(board.start_fen); }
  // Reads "board side halfmove fullmove"; missing trailing fields default to "x 0 1". The board
  // is known from the shape of the first field (see README: square boards 4x4..8x8, the hexagon).
  // Throws std::invalid_argument saying what is wrong.
  static Position from_fen(std::string_view fen);
  std::string fen() const;
  // Throws std::invalid_argument when the three sets overlap, lie off the board or the counters
  // are out of range.
  static Position from_bitboards(const Board& board, Bitboard x, Bitboard o, Bitboard gaps, Color side,
                                 int halfmove_clock = 0, int fullmove_number = 1);

  const Board& board() const { return *board_; }
  Bitboard pieces(Color c) const { return pieces_[index(c)]; }
  Bitboard gaps() const { return gaps_; }
  Bitboard empty() const { return ~(pieces_[0] | pieces_[1] | gaps_) & board_->cells; }
  Color side_to_move() const { return side_; }
  // The counters never pass this: read from outside (FEN, files) up to it, they stop at it in
  // play, so that no int overflows and every position's FEN reads back.
  static constexpr int kMaxCounter = 1'000'000;
  int halfmove_clock() const { return halfmove_clock_; }
  int fullmove_number() const { return fullmove_number_; }
  std::uint64_t hash() const { return hash_; }
  std::uint64_t compute_hash() const;  // from scratch; equals hash() in a consistent position

  // Whether colour c has a move other than a pass.
  bool can_move(Color c) const { return (board_->dilate(board_->dilate(pieces(c))) & empty()) != 0; }
  // Number of non-pass moves for the side to move, without generating them (count_moves below
  // for any two bitboards).
  int count_moves() const;
  // All legal moves; the single pass when the side to move has nothing else. Empty once the
  // game is over by the position's rules (no pieces, or neither side can move).
  void generate_moves(MoveList& moves) const;
  bool is_legal(Move move) const;
  void make_move(Move move);  // move must be legal

  // The end of game by the position alone (every rule but repetition, which needs history).
  Outcome outcome(const RuleSettings& rules = {}) const;
  // The winner on piece count, as when neither side can move.
  Result result_by_count() const;

  friend bool operator==(const Position&, const Position&) = default;

 private:
  const Board* board_ = &board_7x7();
  Bitboard pieces_[2] = {0, 0};
  Bitboard gaps_ = 0;
  std::uint64_t hash_ = 0;
  Color side_ = Color::kX;
  int halfmove_clock_ = 0;
  int fullmove_number_ = 1;
};

inline int count_moves(const Board& board, Bitboard own, Bitboard free) {
  int count = popcount(board.dilate(own) & free);
  for (Bitboard from = own; from;) count += popcount(board.jump_targets[pop_lsb(from)] & free);
  return count;
}

inline int Position::count_moves() const { return ataxx::count_moves(*board_, pieces(side_), empty()); }

inline void Position::generate_moves(MoveList& moves) const {
  const Bitboard own = pieces(side_);
  if (!own || !pieces(~side_)) return;
  const Bitboard free = empty();
  for (Bitboard to = board_->dilate(own) & free; to;) moves.push_back(Move::single(pop_lsb(to)));
  for (Bitboard from_set = own; from_set;) {
    const Square from = pop_lsb(from_set);
    for (Bitboard to = board_->jump_targets[from] & free; to;) moves.push_back(Move::jump(from, pop_lsb(to)));
  }
  if (moves.empty() && can_move(~side_)) moves.push_back(Move::pass());
}

inline void Position::make_move(Move move) {
  const auto& keys = zobrist::kKeys;
  const int us = index(side_);
  const int them = us ^ 1;
  if (!move.is_pass()) {
    const Bitboard captured = board_->clone_targets[move.to] & pieces_[them];
    pieces_[us] |= bit(move.to) | captured;
    pieces_[them] ^= captured;
    hash_ ^= keys.piece[us][move.to];
    for (Bitboard b = captured; b;) {
      const Square sq = pop_lsb(b);
      hash_ ^= keys.piece[us][sq] ^ keys.piece[them][sq];
    }
    if (move.is_jump()) {
      pieces_[us] ^= bit(move.from);
      hash_ ^= keys.piece[us][move.from];
    }
  }
  halfmove_clock_ = move.is_single() ? 0 : std::min(halfmove_clock_ + 1, kMaxCounter);
  if (side_ == Color::kO) fullmove_number_ = std::min(fullmove_number_ + 1, kMaxCounter);
  side_ = ~side_;
  hash_ ^= keys.side_o;
}

}  // namespace ataxx
