// Tic-tac-toe's positions and moves in self-play's chunks, "TTT1": a position as each side's men
// and the side to move, a move as its cell.
#pragma once

#include <string>
#include <string_view>

#include "games/core/chunk_bytes.h"
#include "tests/games/tictactoe/position.h"

namespace ataxx::tictactoe {

struct Chunk {
  static constexpr std::string_view kMagic = "TTT1";
  static int version_of(std::string_view magic) { return magic == kMagic ? 1 : 0; }
  static ChunkLayout layout(int version);
  static void put_position(std::string& out, const Position& pos);
  static Position read_position(ByteReader& in, int version);
  static Bitboard cells(const Position&) { return kBoard; }
  static void put_move(std::string& out, Move move) { put_bytes(out, move.cell); }
  // Each move must be an empty cell of the sample's position.
  class MoveReader {
   public:
    MoveReader(const Position& pos, int) : empty_(pos.empty()) {}
    Move read(ByteReader& in) const;

   private:
    Bitboard empty_;
  };
};

}  // namespace ataxx::tictactoe
