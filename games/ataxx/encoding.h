// How positions and moves meet the network: input planes and policy layout on a square canvas
// that holds every board the network plays (KataGo's way with board sizes). Plain C++: search,
// self-play and tests use it without torch.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "games/ataxx/position.h"

namespace ataxx {

inline constexpr int kEncodingVersion = 2;

// Input planes, from the side to move's view, each canvas x canvas with a cell (column, row) at
// [row][column]: own pieces, opponent pieces, gaps, empty cells, halfmove clock / 100, and the
// board mask (1 on the board's cells, gaps included; 0 on the canvas around a smaller board).
inline constexpr int kInputPlanes = 6;
inline constexpr int kMaskPlane = 5;

// A move's type: 0 a single, then the jumps by canvas offset from destination to source: the 16
// offsets at square distance 2, then (+1, -1) and (-1, +1), which are jumps on the hexagon.
inline constexpr int kMoveTypes = 19;

class Encoding {
 public:
  explicit Encoding(int canvas);  // throws std::invalid_argument unless 4 <= canvas <= 9

  int canvas() const { return canvas_; }
  int area() const { return canvas_ * canvas_; }
  int input_size() const { return kInputPlanes * area(); }
  // Policy: kMoveTypes planes over the canvas, type-major (entry = type * area + row * canvas +
  // column of the destination), then the pass.
  int policy_size() const { return kMoveTypes * area() + 1; }
  int pass_index() const { return kMoveTypes * area(); }
  bool fits(const Board& board) const { return board.size <= canvas_; }

  // Throw std::invalid_argument for a board that does not fit the canvas (and for planes of
  // another size than input_size(), a move that is none of the board's).
  void encode(const Position& pos, std::span<float> planes) const;
  int policy_index(const Board& board, Move move) const {
    if (move.is_pass()) return pass_index();
    const int entry = move.from < kMaxCells && move.to < kMaxCells
                          ? entries_[static_cast<int>(board.id) * kMaxCells * kMaxCells + move.from * kMaxCells + move.to]
                          : -1;
    if (entry < 0) [[unlikely]]
      throw_no_entry(board, move);
    return entry;
  }
  // The move of `board` at a policy entry; the pass for entries that are no move there.
  Move move_at(const Board& board, int index) const;
  // The canvas cell of a board's cell.
  int canvas_cell(const Board& board, Square sq) const { return board.row[sq] * canvas_ + board.column[sq]; }

 private:
  [[noreturn]] void throw_no_entry(const Board& board, Move move) const;
  int canvas_;
  // Each board's policy entries on this canvas, [board id][from x kMaxCells + to] (-1: no move
  // there), made once per canvas and shared: looked up for every move of every evaluation.
  const std::int16_t* entries_;
};

// The boards a network plays (it was trained on), and the canvas that holds them.
struct BoardSet {
  std::vector<const Board*> boards = {&board_7x7()};
  bool contains(const Board& board) const;
  Encoding encoding() const;  // the smallest canvas that holds every board
  std::string names() const;  // "7x7,hexagon"
  // Reads names() back (spaces allowed); throws std::invalid_argument on an unknown or repeated
  // name, or none.
  static BoardSet parse(std::string_view names);
};

// A hash of everything encode puts in the planes: equal keys, equal inputs (but for hash
// collisions). The position's hash alone leaves out the halfmove clock.
std::uint64_t encoding_key(const Position& pos);

}  // namespace ataxx
