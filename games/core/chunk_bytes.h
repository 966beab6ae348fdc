// What a game's chunk codec (games/<game>/chunk.h) reads and writes its positions and moves with:
// the little-endian bytes of self-play's chunks (selfplay/training_data.h), and the layout of a
// sample in each version of a game's chunks.
#pragma once

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ataxx {

template <typename T>
void put_bytes(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Reads values in turn; throws std::invalid_argument("truncated") past the end. A codec throws
// std::invalid_argument for anything else it refuses, and the chunk's reader names the chunk.
class ByteReader {
 public:
  explicit ByteReader(std::string_view data) : data_(data) {}
  template <typename T>
  T get() {
    if (data_.size() < sizeof(T)) throw std::invalid_argument("truncated");
    T value;
    std::memcpy(&value, data_.data(), sizeof value);
    data_.remove_prefix(sizeof value);
    return value;
  }
  bool done() const { return data_.empty(); }

 private:
  std::string_view data_;
};

// A sample of one version of a game's chunks: its fewest and most bytes, and which of the
// fields every game's samples share it carries (the result flags, whether they mark the first
// sample of each game, the model, and whether the compressed frame must carry its checksum).
struct ChunkLayout {
  std::size_t least_sample_bytes = 0;
  std::size_t most_sample_bytes = 0;
  bool flags = true;
  bool game_starts = true;
  bool models = true;
  bool checksum = true;
};

}  // namespace ataxx
