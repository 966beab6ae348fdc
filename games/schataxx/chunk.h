// Schataxx's positions and moves in self-play's chunks (the contract's Chunk, games/game_type.h),
// "SXZ2": a position as its FEN and variant, a move as from, to and the man dropped. "SXZ1"
// still loads: the same bytes, but its samples do not mark where a game starts.
#pragma once

#include <string>
#include <string_view>

#include "games/core/chunk_bytes.h"
#include "games/schataxx/position.h"

namespace ataxx::schataxx {

struct Chunk {
  static constexpr std::string_view kMagic = "SXZ2";
  static int version_of(std::string_view magic) { return magic == "SXZ1" ? 1 : magic == kMagic ? 2 : 0; }
  static ChunkLayout layout(int version);
  static void put_position(std::string& out, const Position& pos);
  static Position read_position(ByteReader& in, int version);
  static Bitboard cells(const Position&) { return ~Bitboard{0}; }
  static void put_move(std::string& out, Move move);
  // Each move must be legal in the sample's position (its moves generated once).
  class MoveReader {
   public:
    MoveReader(const Position& pos, int version);
    Move read(ByteReader& in) const;

   private:
    MoveList legal_;
  };
};

}  // namespace ataxx::schataxx
