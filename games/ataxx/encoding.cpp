#include "games/ataxx/encoding.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ataxx {
namespace {

// The move type of each canvas offset (source - destination) in [-2, 2]^2; -1 for no type.
constexpr std::array<std::array<std::int8_t, 5>, 5> kTypeOfOffset = [] {
  std::array<std::array<std::int8_t, 5>, 5> types{};
  for (auto& row : types) row.fill(-1);
  types[2][2] = 0;
  int next = 1;
  for (int dr = -2; dr <= 2; ++dr)
    for (int dc = -2; dc <= 2; ++dc)
      if (dc == -2 || dc == 2 || dr == -2 || dr == 2) types[dr + 2][dc + 2] = static_cast<std::int8_t>(next++);
  types[-1 + 2][1 + 2] = static_cast<std::int8_t>(next++);  // (+1, -1)
  types[1 + 2][-1 + 2] = static_cast<std::int8_t>(next++);  // (-1, +1)
  return types;
}();
static_assert(kTypeOfOffset[1][3] == kMoveTypes - 2 && kTypeOfOffset[3][1] == kMoveTypes - 1);

constexpr int kClockCap = 100;  // the clock plane holds min(clock, 100) / 100

// A move's policy entry on a canvas: its type's plane, its destination's cell; none for a move that
// is no single or jump between cells of the board, or a board the canvas cannot hold.
std::optional<int> entry_of(const Board& board, Move move, int canvas) {
  if (board.size > canvas || !board.has_cell(move.from) || !board.has_cell(move.to)) return std::nullopt;
  const int dc = board.column[move.from] - board.column[move.to];
  const int dr = board.row[move.from] - board.row[move.to];
  const int type = std::abs(dc) <= 2 && std::abs(dr) <= 2 ? kTypeOfOffset[dr + 2][dc + 2] : -1;
  if (type < 0 || (type == 0) != move.is_single()) return std::nullopt;
  return type * canvas * canvas + board.row[move.to] * canvas + board.column[move.to];
}

// Every board's entries on one canvas, as Encoding::entries_ holds them.
std::vector<std::int16_t> entry_table(int canvas) {
  std::vector<std::int16_t> table;
  table.reserve(kNumBoards * kMaxCells * kMaxCells);
  for (int id = 0; id < kNumBoards; ++id) {
    const Board& b = board(static_cast<BoardId>(id));
    for (int from = 0; from < kMaxCells; ++from)
      for (int to = 0; to < kMaxCells; ++to) {
        const Move move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
        table.push_back(static_cast<std::int16_t>(entry_of(b, move, canvas).value_or(-1)));
      }
  }
  return table;
}

const std::int16_t* entry_table_of(int canvas) {
  static const std::vector<std::vector<std::int16_t>> tables = [] {
    std::vector<std::vector<std::int16_t>> all;
    for (int c = 4; c <= kMaxBoardSize; ++c) all.push_back(entry_table(c));
    return all;
  }();
  return tables[canvas - 4].data();
}

}  // namespace

Encoding::Encoding(int canvas) : canvas_(canvas) {
  if (canvas < 4 || canvas > kMaxBoardSize)
    throw std::invalid_argument("a network canvas of " + std::to_string(canvas) + " cells a side; expected 4 to 9");
  entries_ = entry_table_of(canvas);
}

void Encoding::encode(const Position& pos, std::span<float> planes) const {
  const Board& board = pos.board();
  if (!fits(board))
    throw std::invalid_argument("a " + std::string(board.name) + " position does not fit a network canvas of " +
                                std::to_string(canvas_) + " cells a side");
  if (planes.size() != static_cast<std::size_t>(input_size()))
    throw std::invalid_argument("encode: " + std::to_string(planes.size()) + " floats given for " +
                                std::to_string(input_size()) + " inputs");
  const Color us = pos.side_to_move();
  std::fill(planes.begin(), planes.end(), 0.0f);
  const float clock = static_cast<float>(std::min(pos.halfmove_clock(), kClockCap)) / kClockCap;
  const Bitboard own = pos.pieces(us), theirs = pos.pieces(~us), gaps = pos.gaps();
  const int n = area();
  for (Square sq = 0; sq < board.num_cells; ++sq) {
    const int cell = canvas_cell(board, sq);
    const Bitboard b = bit(sq);
    const int occupant = (own & b) ? 0 : (theirs & b) ? 1 : (gaps & b) ? 2 : 3;
    planes[occupant * n + cell] = 1.0f;
    planes[4 * n + cell] = clock;
    planes[kMaskPlane * n + cell] = 1.0f;
  }
}

void Encoding::throw_no_entry(const Board& board, Move move) const {
  throw std::invalid_argument("policy_index: " + to_string(move, board) + " is not a move of the " + std::string(board.name) +
                              " board on a canvas of " + std::to_string(canvas_));
}

Move Encoding::move_at(const Board& board, int index) const {
  if (index < 0 || index >= pass_index()) return Move::pass();
  const int type = index / area(), cell = index % area();
  const auto to = board.find(cell % canvas_, cell / canvas_);
  if (!to) return Move::pass();
  if (type == 0) return Move::single(*to);
  for (int dr = -2; dr <= 2; ++dr)
    for (int dc = -2; dc <= 2; ++dc) {
      if (kTypeOfOffset[dr + 2][dc + 2] != type) continue;
      const auto from = board.find(board.column[*to] + dc, board.row[*to] + dr);
      if (from && (board.jump_targets[*from] & bit(*to))) return Move::jump(*from, *to);
    }
  return Move::pass();
}

bool BoardSet::contains(const Board& board) const {
  return std::find(boards.begin(), boards.end(), &board) != boards.end();
}

Encoding BoardSet::encoding() const {
  int canvas = 4;
  for (const Board* board : boards) canvas = std::max(canvas, board->size);
  return Encoding(canvas);
}

std::string BoardSet::names() const {
  std::string out;
  for (const Board* board : boards) {
    if (!out.empty()) out += ',';
    out += board->name;
  }
  return out;
}

BoardSet BoardSet::parse(std::string_view names) {
  BoardSet set;
  set.boards.clear();
  std::size_t start = 0;
  while (start <= names.size()) {
    const std::size_t end = std::min(names.find(',', start), names.size());
    std::string_view name = names.substr(start, end - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    const Board* board = find_board(name);
    if (!board)
      throw std::invalid_argument("unknown board '" + std::string(name) + "' (boards: 4x4, 5x5, 6x6, 7x7, 8x8, hexagon)");
    if (set.contains(*board)) throw std::invalid_argument("board " + std::string(name) + " is named twice");
    set.boards.push_back(board);
    start = end + 1;
  }
  return set;
}

std::uint64_t encoding_key(const Position& pos) {
  std::uint64_t clock = static_cast<std::uint64_t>(std::min(pos.halfmove_clock(), kClockCap));
  return pos.hash() ^ zobrist::splitmix64(clock);
}

}  // namespace ataxx
