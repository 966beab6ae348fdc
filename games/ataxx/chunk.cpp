#include "games/ataxx/chunk.h"

#include <algorithm>
#include <cstdlib>

namespace ataxx {
namespace {

// A move as chunks up to version 3 wrote it: its index in the 7x7 policy of encoding version 1,
// destination * 17 + kind (0 a single, then the 16 jump sources by offset), 833 the pass.
Move legacy_move(int index) {
  constexpr int kLegacyPass = 49 * 17;
  if (index == kLegacyPass) return Move::pass();
  const Square to = index / 17;
  int kind = index % 17;
  if (index < kLegacyPass && kind == 0) return Move::single(to);
  for (int dr = -2; dr <= 2 && index < kLegacyPass; ++dr)
    for (int df = -2; df <= 2; ++df) {
      if (std::max(std::abs(df), std::abs(dr)) != 2 || --kind != 0) continue;
      const int file = to % 7 + df, rank = to / 7 + dr;
      if (file >= 0 && file < 7 && rank >= 0 && rank < 7) return Move::jump(rank * 7 + file, to);
    }
  throw std::invalid_argument("a sample's policy index " + std::to_string(index) + " is not a move");
}

}  // namespace

int AtaxxChunk::version_of(std::string_view magic) {
  for (int version = 1; version <= 5; ++version)
    if (magic == "AXZ" + std::to_string(version)) return version;
  return 0;
}

// Bytes of a sample: position 3 x 8 + 1 + 2 + 2, board 1 (version 4 on), root value 4, result 1,
// flags 1 (version 2 on; the game's start marked from 5), model 2 (version 3 on), final board
// 2 x 8, visit count 2, then 4 a visited move: its policy index on 7x7 and a count up to version
// 3, from, to and a count from 4.
ChunkLayout AtaxxChunk::layout(int version) {
  const std::size_t fixed = version == 1 ? 52 : version == 2 ? 53 : version == 3 ? 55 : 56;
  return {.least_sample_bytes = fixed,
          .most_sample_bytes = fixed + 4 * kMaxMoves,
          .flags = version >= 2,
          .game_starts = version >= 5,
          .models = version >= 3,
          .checksum = version >= 2};
}

void AtaxxChunk::put_position(std::string& out, const Position& pos) {
  put_bytes(out, pos.pieces(Color::kX));
  put_bytes(out, pos.pieces(Color::kO));
  put_bytes(out, pos.gaps());
  put_bytes<std::uint8_t>(out, static_cast<std::uint8_t>(pos.side_to_move()));
  // 16 bits, saturated: the network sees the clock only up to 100.
  put_bytes<std::uint16_t>(out, static_cast<std::uint16_t>(std::min(pos.halfmove_clock(), 65535)));
  put_bytes<std::uint16_t>(out, static_cast<std::uint16_t>(std::min(pos.fullmove_number(), 65535)));
  put_bytes<std::uint8_t>(out, static_cast<std::uint8_t>(pos.board().id));
}

Position AtaxxChunk::read_position(ByteReader& in, int version) {
  const Bitboard x = in.get<Bitboard>(), o = in.get<Bitboard>(), gaps = in.get<Bitboard>();
  const std::uint8_t side = in.get<std::uint8_t>();
  const int halfmove = in.get<std::uint16_t>();
  const int fullmove = in.get<std::uint16_t>();
  const std::uint8_t board_id = version >= 4 ? in.get<std::uint8_t>() : static_cast<std::uint8_t>(BoardId::k7x7);
  if (side > 1) throw std::invalid_argument("a sample has side to move " + std::to_string(side));
  if (board_id >= kNumBoards) throw std::invalid_argument("a sample is on unknown board " + std::to_string(board_id));
  try {
    return Position::from_bitboards(board(static_cast<BoardId>(board_id)), x, o, gaps, static_cast<Color>(side),
                                    halfmove, fullmove);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("a sample holds an impossible position: ") + e.what());
  }
}

void AtaxxChunk::put_move(std::string& out, Move move) {
  put_bytes(out, move.from);
  put_bytes(out, move.to);
}

Move AtaxxChunk::MoveReader::read(ByteReader& in) const {
  if (version_ < 4) return legacy_move(in.get<std::uint16_t>());
  const Move move{in.get<std::uint8_t>(), in.get<std::uint8_t>()};
  // Both cells are checked before either indexes a table or a shift.
  const bool is_move = move.is_pass() ? move.from == Move::kPassSquare
                       : move.is_single() ? board_.has_cell(move.to)
                                          : board_.has_cell(move.from) && board_.has_cell(move.to) &&
                                                (board_.jump_targets[move.from] & bit(move.to));
  if (!is_move)
    throw std::invalid_argument("a sample lists a move that is not one on the " + std::string(board_.name) + " board");
  return move;
}

}  // namespace ataxx
