#include "tests/games/tictactoe/position.h"

#include <stdexcept>

#include "games/core/splitmix.h"

namespace ataxx::tictactoe {
namespace {

constexpr std::array<Bitboard, 8> kLines = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

int column_of(int cell) { return cell % 3; }
int row_of(int cell) { return cell / 3; }

}  // namespace

Position Position::from_fen(std::string_view fen) {
  auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("tic-tac-toe FEN '" + std::string(fen) + "': " + why);
  };
  if (fen.size() != 13 || fen[3] != '/' || fen[7] != '/' || fen[11] != ' ')
    refuse("expected three rows of x, o or '.', from the top, and the side to move: x.o/.x./o.. o");
  Bitboard men[2] = {0, 0};
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 3; ++column) {
      const char c = fen[static_cast<std::size_t>(4 * (2 - row) + column)];
      const Bitboard cell = Bitboard{1} << (3 * row + column);
      if (c == 'x') men[0] |= cell;
      else if (c == 'o') men[1] |= cell;
      else if (c != '.') refuse(std::string("'") + c + "' is not x, o or '.'");
    }
  if (fen[12] != 'x' && fen[12] != 'o') refuse("the side to move is x or o");
  try {
    return from_men(men[0], men[1], fen[12] == 'x' ? Color::kX : Color::kO);
  } catch (const std::invalid_argument& e) {
    refuse(e.what());
    throw;
  }
}

Position Position::from_men(Bitboard x, Bitboard o, Color side) {
  if ((x | o) & ~kBoard || x & o) throw std::invalid_argument("tic-tac-toe men off the board or two on a cell");
  if (tictactoe::has_line(x) && tictactoe::has_line(o)) throw std::invalid_argument("both sides have three in a row");
  if (popcount(x) - popcount(o) != (side == Color::kX ? 0 : 1))
    throw std::invalid_argument("x moves first, so x has as many men as o, or one more");
  Position pos;
  pos.men_ = {x, o};
  pos.side_ = side;
  return pos;
}

std::uint64_t Position::hash() const {
  std::uint64_t state = men_[0] | men_[1] << kCells | static_cast<std::uint64_t>(index(side_)) << 2 * kCells;
  return zobrist::splitmix64(state);
}

std::string Position::fen() const {
  std::string text;
  for (int row = 2; row >= 0; --row) {
    for (int column = 0; column < 3; ++column) {
      const Bitboard cell = Bitboard{1} << (3 * row + column);
      text += men_[0] & cell ? 'x' : men_[1] & cell ? 'o' : '.';
    }
    text += row > 0 ? '/' : ' ';
  }
  return text + (side_ == Color::kX ? 'x' : 'o');
}

bool has_line(Bitboard men) {
  for (const Bitboard line : kLines)
    if ((men & line) == line) return true;
  return false;
}

Outcome Position::outcome(const Rules&) const {
  if (has_line(Color::kX)) return {Result::kXWins, EndReason::kNoMoves};
  if (has_line(Color::kO)) return {Result::kOWins, EndReason::kNoMoves};
  if (empty() == 0) return {Result::kDraw, EndReason::kNoMoves};
  return {};
}

void Position::generate_moves(MoveList& moves) const {
  moves.clear();
  if (outcome().is_over()) return;
  for (Bitboard b = empty(); b;) moves.push_back({static_cast<std::int8_t>(pop_lsb(b))});
}

void Position::make_move(Move move) {
  men_[index(side_)] |= Bitboard{1} << move.cell;
  side_ = ~side_;
}

std::string to_string(Move move) {
  if (move.is_pass()) return "0000";
  return {static_cast<char>('a' + column_of(move.cell)), static_cast<char>('1' + row_of(move.cell))};
}

Move parse_move(std::string_view text) {
  if (text == "0000") return Move::pass();
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'c' || text[1] < '1' || text[1] > '3')
    throw std::invalid_argument("'" + std::string(text) + "' is not a tic-tac-toe move (a1 to c3)");
  return {static_cast<std::int8_t>(3 * (text[1] - '1') + text[0] - 'a')};
}

int transform_cell(int symmetry, int cell) {
  int column = column_of(cell), row = row_of(cell);
  for (int turn = 0; turn < symmetry % 4; ++turn) {  // a quarter turn: (c, r) -> (r, 2 - c)
    const int was = column;
    column = row;
    row = 2 - was;
  }
  if (symmetry >= 4) column = 2 - column;
  return 3 * row + column;
}

}  // namespace ataxx::tictactoe
