// Training samples from self-play and the compressed chunk files that carry them.
// A chunk is "AXZ1", the number of games and of samples it holds, then zstd-compressed
// fixed-layout samples; chunks are written atomically, so a reader sees whole chunks or none.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "game/position.h"

namespace ataxx {

struct TrainingSample {
  Position position;
  std::vector<std::pair<std::uint16_t, std::uint16_t>> visits;  // (policy index, visit count), the policy target
  float root_value = 0.0f;  // search value for the side to move
  std::int8_t result = 0;   // final result for the side to move: 1, 0, -1
  Bitboard final_x = 0;     // the board at the end of the game (ownership targets)
  Bitboard final_o = 0;
};

void write_chunk(const std::string& path, int games, const std::vector<TrainingSample>& samples);
// Throws std::runtime_error naming the file when it is not a whole, valid chunk.
std::vector<TrainingSample> read_chunk(const std::string& path);
// The number of games in a chunk, from its header alone.
int chunk_games(const std::string& path);

}  // namespace ataxx
