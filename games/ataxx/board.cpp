#include "games/ataxx/board.h"

#include <utility>

namespace ataxx {
namespace {

constexpr int abs(int v) { return v < 0 ? -v : v; }

// Distance between two cells: Chebyshev on a square board; on the hexagon, with neighbours
// (+-1, 0), (0, +-1), (+1, +1), (-1, -1), the larger offset when both go the same way, else their sum.
constexpr int distance(const Board& b, Square from, Square to) {
  const int dc = b.column[to] - b.column[from], dr = b.row[to] - b.row[from];
  if (!b.hexagonal) return abs(dc) > abs(dr) ? abs(dc) : abs(dr);
  if ((dc >= 0) == (dr >= 0) || dc == 0 || dr == 0) return abs(dc) > abs(dr) ? abs(dc) : abs(dr);
  return abs(dc) + abs(dr);
}

// Fills the coordinates of cells 0..num_cells-1 (cell_at must be set) and the move tables.
constexpr void finish(Board& b) {
  b.num_cells = 0;
  for (int r = 0; r < b.size; ++r)
    for (int c = 0; c < b.size; ++c)
      if (b.cell_at[r][c] >= 0) {
        b.column[b.cell_at[r][c]] = static_cast<std::int8_t>(c);
        b.row[b.cell_at[r][c]] = static_cast<std::int8_t>(r);
        ++b.num_cells;
      }
  b.cells = b.num_cells == 64 ? ~Bitboard{0} : (Bitboard{1} << b.num_cells) - 1;
  for (Square from = 0; from < b.num_cells; ++from)
    for (Square to = 0; to < b.num_cells; ++to) {
      const int d = distance(b, from, to);
      if (d == 1) b.clone_targets[from] |= bit(to);
      if (d == 2) b.jump_targets[from] |= bit(to);
    }
  for (int s = 0; s < b.num_symmetries; ++s)
    for (int t = 0; t < b.num_symmetries; ++t) {
      bool undoes = true;
      for (Square sq = 0; sq < b.num_cells; ++sq) undoes = undoes && b.symmetries[t][b.symmetries[s][sq]] == sq;
      if (undoes) b.inverse[s] = static_cast<std::uint8_t>(t);
    }
}

constexpr Board square_board(int n, BoardId id, std::string_view name, std::string_view start_fen) {
  Board b;
  b.id = id;
  b.size = n;
  b.name = name;
  b.start_fen = start_fen;
  for (auto& cells_of_row : b.cell_at) cells_of_row.fill(-1);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) b.cell_at[r][c] = static_cast<std::int8_t>(r * n + c);
  // Bit 0 mirrors files, bit 1 mirrors ranks, bit 2 swaps files and ranks (in that order).
  b.num_symmetries = 8;
  for (int s = 0; s < 8; ++s)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        int file = c, rank = r;
        if (s & 1) file = n - 1 - file;
        if (s & 2) rank = n - 1 - rank;
        if (s & 4) std::swap(file, rank);
        b.symmetries[s][r * n + c] = static_cast<std::uint8_t>(rank * n + file);
      }
  finish(b);
  b.not_first_file_ = b.cells;
  b.not_last_file_ = b.cells;
  for (int r = 0; r < n; ++r) {
    b.not_first_file_ &= ~bit(r * n);
    b.not_last_file_ &= ~bit(r * n + n - 1);
  }
  return b;
}

// The hexagon's 12 symmetries act on offsets (a, b) from the centre cell e5: a turn by 60 degrees
// is (a, b) -> (a - b, a), the reflection (a, b) -> (b, a). Element s = turn^(s % 6), reflected when s >= 6.
constexpr std::pair<int, int> hex_symmetry(int s, int a, int b) {
  if (s >= 6) std::swap(a, b);
  for (int turn = 0; turn < s % 6; ++turn) {
    const int turned_a = a - b;
    b = a;
    a = turned_a;
  }
  return {a, b};
}

constexpr Board hexagon() {
  Board b;
  b.id = BoardId::kHexagon;
  b.hexagonal = true;
  b.size = 9;
  b.name = "hexagon";
  b.start_fen = "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1";
  int next = 0;
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) b.cell_at[r][c] = static_cast<std::int8_t>(abs(c - r) <= 4 ? next++ : -1);
  b.num_symmetries = 12;
  for (int s = 0; s < 12; ++s)
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c) {
        if (b.cell_at[r][c] < 0) continue;
        const auto [a, d] = hex_symmetry(s, c - 4, r - 4);
        b.symmetries[s][b.cell_at[r][c]] = static_cast<std::uint8_t>(b.cell_at[d + 4][a + 4]);
      }
  finish(b);
  return b;
}

constexpr std::array<Board, kNumBoards> kBoards = {
    square_board(4, BoardId::k4x4, "4x4", "x2o/4/4/o2x x 0 1"),
    square_board(5, BoardId::k5x5, "5x5", "x3o/5/5/5/o3x x 0 1"),
    square_board(6, BoardId::k6x6, "6x6", "x4o/6/6/6/6/o4x x 0 1"),
    square_board(7, BoardId::k7x7, "7x7", "x5o/7/7/7/7/7/o5x x 0 1"),
    square_board(8, BoardId::k8x8, "8x8", "x6o/8/8/8/8/8/8/o6x x 0 1"),
    hexagon(),
};

}  // namespace

const Board& board(BoardId id) { return kBoards[static_cast<int>(id)]; }
const Board& board_7x7() { return kBoards[static_cast<int>(BoardId::k7x7)]; }

const Board* find_board(std::string_view name) {
  for (const Board& b : kBoards)
    if (b.name == name) return &b;
  return nullptr;
}

}  // namespace ataxx
