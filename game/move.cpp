#include "game/move.h"

#include <stdexcept>

namespace ataxx {
namespace {

Square parse_square(std::string_view text, std::string_view whole) {
  const char file = text[0];
  const char rank = text[1];
  if (file < 'a' || file > 'g' || rank < '1' || rank > '7')
    throw std::invalid_argument("invalid move '" + std::string(whole) + "': '" + std::string(text) +
                                "' is not a square a1..g7");
  return make_square(file - 'a', rank - '1');
}

}  // namespace

Move parse_move(std::string_view text) {
  if (text == "0000") return Move::pass();
  if (text.size() == 2) return Move::single(parse_square(text, text));
  if (text.size() == 4) {
    const Square from = parse_square(text.substr(0, 2), text);
    const Square to = parse_square(text.substr(2, 2), text);
    if (!(kJumpTargets[from] & bit(to)))
      throw std::invalid_argument("invalid move '" + std::string(text) +
                                  "': a jump must go exactly 2 squares (a single is written as its destination)");
    return Move::jump(from, to);
  }
  throw std::invalid_argument("invalid move '" + std::string(text) +
                              "': expected a destination (g2), from-to (a7c5) or 0000");
}

std::string square_name(Square sq) {
  return {static_cast<char>('a' + file_of(sq)), static_cast<char>('1' + rank_of(sq))};
}

std::string to_string(Move move) {
  if (move.is_pass()) return "0000";
  if (move.is_single()) return square_name(move.to);
  return square_name(move.from) + square_name(move.to);
}

}  // namespace ataxx
