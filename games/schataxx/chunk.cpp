#include "games/schataxx/chunk.h"

#include <algorithm>

namespace ataxx::schataxx {
namespace {

constexpr std::size_t kMaxFenLength = 255;

}  // namespace

// Bytes of a sample: FEN length 1 and text, variant 1, root value 4, result 1, flags 1, model 2,
// final men 2 x 8, visit count 2, then 5 a visited move: from, to, dropped type, count.
ChunkLayout Chunk::layout(int version) {
  constexpr std::size_t kFixed = 28, kMove = 5;
  return {.least_sample_bytes = kFixed,
          .most_sample_bytes = kFixed + kMaxFenLength + kMove * kMaxMoves,
          .game_starts = version >= 2};
}

void Chunk::put_position(std::string& out, const Position& pos) {
  const std::string fen = pos.fen();
  if (fen.size() > kMaxFenLength) throw std::invalid_argument("a sample's FEN is too long for a chunk: " + fen);
  put_bytes<std::uint8_t>(out, static_cast<std::uint8_t>(fen.size()));
  out += fen;
  put_bytes<std::uint8_t>(out, static_cast<std::uint8_t>(pos.variant()));
}

Position Chunk::read_position(ByteReader& in, int) {
  const std::size_t length = in.get<std::uint8_t>();
  std::string fen(length, '\0');
  for (char& c : fen) c = in.get<char>();
  const std::uint8_t variant = in.get<std::uint8_t>();
  if (variant > static_cast<std::uint8_t>(Variant::kUnlimited))
    throw std::invalid_argument("a sample has unknown variant " + std::to_string(variant));
  try {
    return Position::from_fen(fen, static_cast<Variant>(variant));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("a sample holds an impossible position: ") + e.what());
  }
}

void Chunk::put_move(std::string& out, Move move) {
  put_bytes(out, move.from);
  put_bytes(out, move.to);
  put_bytes<std::uint8_t>(out, static_cast<std::uint8_t>(move.drop));
}

Chunk::MoveReader::MoveReader(const Position& pos, int) { pos.generate_moves(legal_); }

Move Chunk::MoveReader::read(ByteReader& in) const {
  Move move;
  move.from = in.get<std::uint8_t>();
  move.to = in.get<std::uint8_t>();
  const std::uint8_t drop = in.get<std::uint8_t>();
  if (drop > static_cast<std::uint8_t>(PieceType::kNone)) throw std::invalid_argument("a sample drops an unknown man");
  move.drop = static_cast<PieceType>(drop);
  if (std::find(legal_.begin(), legal_.end(), move) == legal_.end())
    throw std::invalid_argument("a sample lists a move that is not legal in its position");
  return move;
}

}  // namespace ataxx::schataxx
