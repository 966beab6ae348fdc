// Schataxx FEN and move text, one line each: a FEN is rejected with std::invalid_argument or reads
// back to the same position, with its hash from scratch; a move text is rejected, or written back
// the same; every legal move keeps the hash and the FEN round trip, and is legal by is_legal.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "fuzz/check.h"
#include "games/schataxx/game.h"

using namespace ataxx::schataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = text.find('\n');
  const std::string_view fen = text.substr(0, newline);
  const std::string_view move_text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  try {
    const Move move = parse_move(move_text);
    FUZZ_CHECK(to_string(move) == move_text);
  } catch (const std::invalid_argument&) {
  }
  const Variant variant = size > 0 && data[size - 1] % 3 == 1 ? Variant::kBalanced
                          : size > 0 && data[size - 1] % 3 == 2 ? Variant::kUnlimited
                                                                : Variant::kStandard;
  Position pos;
  try {
    pos = Position::from_fen(fen, variant);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  FUZZ_CHECK(Position::from_fen(pos.fen(), variant) == pos);
  FUZZ_CHECK(pos.compute_hash() == pos.hash());
  MoveList moves;
  pos.generate_moves(moves);
  for (const Move move : moves) {
    FUZZ_CHECK(pos.is_legal(move));
    Position child = pos;
    child.make_move(move);
    FUZZ_CHECK(child.compute_hash() == child.hash());
    if (child.men(ataxx::Color::kX) & child.men(PieceType::kKing) && child.men(ataxx::Color::kO) & child.men(PieceType::kKing))
      FUZZ_CHECK(Position::from_fen(child.fen(), variant) == child);
  }
  Game game(pos);
  if (!game.outcome().is_over() && !moves.empty()) game.play(moves[0]);
  return 0;
}
