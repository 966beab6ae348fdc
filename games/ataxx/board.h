// The boards of the Ataxx family: square N x N boards (N = 4..8) and Hexxagon's hexagon. A board
// is a set of tables: which bits are cells, each cell's clone and jump targets, its coordinates
// and the board's symmetries. Positions point to their board and the rules read only these
// tables, so search, training and matches never ask which board they are on.
//
// Square N x N: cell = rank * N + file (a1 = 0), so 7x7 keeps the layout it always had.
// Hexagon: columns a-i and rows 1-9, cell (column, row) on the board iff |column - row| <= 4,
// numbered row by row from a1; neighbours (+-1, 0), (0, +-1), (+1, +1), (-1, -1).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "games/core/bitboard.h"
#include "games/core/symmetries.h"

namespace ataxx {

inline constexpr int kMaxCells = 64;
inline constexpr int kMaxBoardSize = 9;     // rows and columns of the largest board (the hexagon)

enum class BoardId : std::uint8_t { k4x4, k5x5, k6x6, k7x7, k8x8, kHexagon };
inline constexpr int kNumBoards = 6;

struct Board {
  BoardId id{};
  bool hexagonal = false;
  int size = 0;       // rows (and columns): N, or 9 for the hexagon
  int num_cells = 0;
  Bitboard cells = 0;
  std::string_view name;       // "7x7", "hexagon"
  std::string_view start_fen;
  std::array<Bitboard, kMaxCells> clone_targets{};  // the cells a piece on a cell clones to
  std::array<Bitboard, kMaxCells> jump_targets{};   // and jumps to
  std::array<std::int8_t, kMaxCells> column{};      // 0-based file (a = 0) or hex column
  std::array<std::int8_t, kMaxCells> row{};         // 0-based rank or hex row
  std::array<std::array<std::int8_t, kMaxBoardSize>, kMaxBoardSize> cell_at{};  // [row][column], -1 off the board
  int num_symmetries = 0;
  // Symmetry s maps cell c to symmetries[s][c]; 0 is the identity.
  std::array<std::array<std::uint8_t, kMaxCells>, kMaxSymmetries> symmetries{};
  std::array<std::uint8_t, kMaxSymmetries> inverse{};

  // Every cell within distance 1 of a cell of b, b itself included.
  constexpr Bitboard dilate(Bitboard b) const {
    if (hexagonal) {
      Bitboard out = b;
      for (Bitboard from = b; from;) out |= clone_targets[pop_lsb(from)];
      return out;
    }
    const Bitboard row_spread = (b | ((b << 1) & not_first_file_) | ((b >> 1) & not_last_file_)) & cells;
    return (row_spread | (row_spread << size) | (row_spread >> size)) & cells;
  }
  // Whether sq, an index from outside (a file, a line), is a cell of this board.
  constexpr bool has_cell(int sq) const { return sq >= 0 && sq < kMaxCells && (cells & bit(sq)); }
  // The cell at (column, row), if the board has one there.
  constexpr std::optional<Square> find(int column_index, int row_index) const {
    if (column_index < 0 || row_index < 0 || column_index >= size || row_index >= size) return std::nullopt;
    const int cell = cell_at[row_index][column_index];
    return cell < 0 ? std::nullopt : std::optional<Square>(cell);
  }

  Bitboard not_first_file_ = 0;  // square boards: the shifts of dilate must not wrap a rank
  Bitboard not_last_file_ = 0;
};

const Board& board(BoardId id);
const Board& board_7x7();
// "4x4".."8x8" or "hexagon"; nullptr for any other name.
const Board* find_board(std::string_view name);

}  // namespace ataxx
