#include "tests/games/tictactoe/chunk.h"

#include <cstdint>
#include <stdexcept>

namespace ataxx::tictactoe {

// Bytes of a sample: x's men 2, o's 2, the side 1, then what every game's samples share (root
// value 4, result 1, flags 1, model 2, final men 2 x 8, visit count 2), then 3 a visited move:
// its cell and count.
ChunkLayout Chunk::layout(int) {
  constexpr std::size_t kFixed = 31, kMove = 3;
  return {.least_sample_bytes = kFixed, .most_sample_bytes = kFixed + kMove * kMaxMoves};
}

void Chunk::put_position(std::string& out, const Position& pos) {
  put_bytes(out, static_cast<std::uint16_t>(pos.men(Color::kX)));
  put_bytes(out, static_cast<std::uint16_t>(pos.men(Color::kO)));
  put_bytes(out, static_cast<std::uint8_t>(index(pos.side_to_move())));
}

Position Chunk::read_position(ByteReader& in, int) {
  const Bitboard x = in.get<std::uint16_t>(), o = in.get<std::uint16_t>();
  const std::uint8_t side = in.get<std::uint8_t>();
  if (side > 1) throw std::invalid_argument("a sample's side to move is neither x nor o");
  try {
    return Position::from_men(x, o, static_cast<Color>(side));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("a sample holds an impossible position: ") + e.what());
  }
}

Move Chunk::MoveReader::read(ByteReader& in) const {
  const std::int8_t cell = in.get<std::int8_t>();
  if (cell < 0 || cell >= kCells || !(empty_ & Bitboard{1} << cell))
    throw std::invalid_argument("a sample lists a move that is not legal in its position");
  return {cell};
}

}  // namespace ataxx::tictactoe
