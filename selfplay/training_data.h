// Training samples from self-play and the compressed chunk files that carry them, for each game.
// A chunk is its game's magic (G::Chunk::kMagic, "AXZ5" for Ataxx), the number of games and of
// samples it holds, then one zstd frame (with its content checksum) holding the names of the
// models that played, then the samples, game after game: each its position in the game's bytes,
// its root value, result, flags (final board known, first of its game), model and final men,
// then its visited moves in the game's bytes with their counts (games/<game>/chunk.h, which also
// reads its game's older chunks).
// Chunks are written atomically, so a reader sees whole chunks or none; everything read is
// checked, so a damaged chunk is an error, never a wrong sample.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/registry.h"

namespace ataxx {

template <typename G>
struct BasicTrainingSample {
  typename G::Position position;
  std::vector<std::pair<typename G::Move, std::uint16_t>> visits;  // (move, visit count), the policy target
  float root_value = 0.0f;  // search value for the side to move
  std::int8_t result = 0;   // final result for the side to move: 1, 0, -1
  bool final_board_known = true;  // false for resigned games: no ownership or piece targets
  bool starts_game = false;       // the first of its game's samples in the chunk (guessed in old chunks)
  Bitboard final_x = 0;     // the men of each side at the end of the game (ownership targets)
  Bitboard final_o = 0;
  std::string model;        // the network that played this move's search ("": unknown, as in old chunks)
};
using TrainingSample = BasicTrainingSample<DefaultGame>;

// Limits a reader enforces before it allocates anything.
inline constexpr std::uint32_t kMaxChunkGames = 1u << 20;
inline constexpr std::uint32_t kMaxChunkSamples = 1u << 22;
inline constexpr std::size_t kMaxChunkModels = 1024;
inline constexpr std::size_t kMaxModelNameLength = 64;
inline constexpr int kMaxRecordedVisits = 65535;  // a visit count is 16 bits in a chunk

template <typename G>
void write_chunk(const std::string& path, int games, const std::vector<BasicTrainingSample<G>>& samples);
// Throws std::runtime_error naming the file and the fault when it is not a whole, valid chunk of
// game G (a chunk of another game says which).
template <typename G = DefaultGame>
std::vector<BasicTrainingSample<G>> read_chunk(const std::string& path);
// The same for a chunk's bytes; `name` goes into the messages.
template <typename G = DefaultGame>
std::vector<BasicTrainingSample<G>> parse_chunk(std::string_view bytes, const std::string& name);
struct ChunkCounts {
  std::string game;  // G::kName of the chunk's game
  int games = 0;
  int samples = 0;
};
// The numbers of games and samples in a chunk, from its header alone (throws as read_chunk does):
// a chunk of games/registry.h's games, or of Gs (a caller's own game).
template <typename... Gs>
ChunkCounts chunk_counts(const std::string& path);

}  // namespace ataxx
