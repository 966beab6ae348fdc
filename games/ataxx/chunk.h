// Ataxx's positions and moves in self-play's chunks (the contract's Chunk, games/game_type.h).
// Version 5 ("AXZ5") is written: a position as its three bitboards, side, clocks and board; a
// move as from and to. Older chunks still load: version 4 (its samples do not mark where a game
// starts), and, all 7x7, 3 (policy indices of the 7x7 layout instead of moves), 2 ("AXZ2": no
// model names) and 1 ("AXZ1": no checksum, no flags).
#pragma once

#include <string>
#include <string_view>

#include "games/ataxx/position.h"
#include "games/core/chunk_bytes.h"

namespace ataxx {

struct AtaxxChunk {
  static constexpr std::string_view kMagic = "AXZ5";
  static int version_of(std::string_view magic);  // 1 to 5, or 0 for another game's
  static ChunkLayout layout(int version);
  static void put_position(std::string& out, const Position& pos);
  static Position read_position(ByteReader& in, int version);
  static Bitboard cells(const Position& pos) { return pos.board().cells; }
  static void put_move(std::string& out, Move move);
  // The moves of a sample: of its board (version 4 on), or 7x7 policy indices (before).
  class MoveReader {
   public:
    MoveReader(const Position& pos, int version) : board_(pos.board()), version_(version) {}
    Move read(ByteReader& in) const;

   private:
    const Board& board_;
    int version_;
  };
};

}  // namespace ataxx
