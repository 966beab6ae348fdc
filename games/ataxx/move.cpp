#include "games/ataxx/move.h"

#include <stdexcept>

namespace ataxx {
namespace {

Square parse_square(std::string_view text, std::string_view whole, const Board& board) {
  const auto cell = board.find(text[0] - 'a', text[1] - '1');
  if (!cell)
    throw std::invalid_argument("invalid move '" + std::string(whole) + "': '" + std::string(text) +
                                "' is not a cell of the " + std::string(board.name) + " board");
  return *cell;
}

}  // namespace

Move parse_move(std::string_view text, const Board& board) {
  if (text == "0000") return Move::pass();
  if (text == "pass" || text == "PASS" || text == "Pass")
    throw std::invalid_argument("invalid move '" + std::string(text) + "': a pass is written 0000");
  if (text.size() == 2) return Move::single(parse_square(text, text, board));
  if (text.size() == 4) {
    const Square from = parse_square(text.substr(0, 2), text, board);
    const Square to = parse_square(text.substr(2, 2), text, board);
    if (!(board.jump_targets[from] & bit(to)))
      throw std::invalid_argument("invalid move '" + std::string(text) +
                                  "': a jump must go exactly 2 cells (a single is written as its destination)");
    return Move::jump(from, to);
  }
  throw std::invalid_argument("invalid move '" + std::string(text) +
                              "': expected a destination (g2), from-to (a7c5) or 0000");
}

std::string square_name(Square sq, const Board& board) {
  return {static_cast<char>('a' + board.column[sq]), static_cast<char>('1' + board.row[sq])};
}

std::string to_string(Move move, const Board& board) {
  if (move.is_pass()) return "0000";
  if (move.is_single()) return square_name(move.to, board);
  return square_name(move.from, board) + square_name(move.to, board);
}

}  // namespace ataxx
