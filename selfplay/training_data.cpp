#include "selfplay/training_data.h"

#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "game/atomic_file.h"

namespace ataxx {
namespace {

constexpr char kMagic[4] = {'A', 'X', 'Z', '1'};

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

class Reader {
 public:
  Reader(std::string_view data, const std::string& path) : data_(data), path_(path) {}
  template <typename T>
  T get() {
    if (data_.size() < sizeof(T)) throw std::runtime_error("chunk '" + path_ + "' is truncated");
    T value;
    std::memcpy(&value, data_.data(), sizeof value);
    data_.remove_prefix(sizeof value);
    return value;
  }
  bool done() const { return data_.empty(); }

 private:
  std::string_view data_;
  const std::string& path_;
};

}  // namespace

void write_chunk(const std::string& path, int games, const std::vector<TrainingSample>& samples) {
  std::string raw;
  for (const TrainingSample& s : samples) {
    const Position& p = s.position;
    put(raw, p.pieces(Color::kX));
    put(raw, p.pieces(Color::kO));
    put(raw, p.gaps());
    put<std::uint8_t>(raw, static_cast<std::uint8_t>(p.side_to_move()));
    put<std::uint16_t>(raw, static_cast<std::uint16_t>(p.halfmove_clock()));
    put<std::uint16_t>(raw, static_cast<std::uint16_t>(p.fullmove_number()));
    put(raw, s.root_value);
    put(raw, s.result);
    put(raw, s.final_x);
    put(raw, s.final_o);
    put<std::uint16_t>(raw, static_cast<std::uint16_t>(s.visits.size()));
    for (const auto& [index, count] : s.visits) {
      put(raw, index);
      put(raw, count);
    }
  }
  std::string compressed(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t size = ZSTD_compress(compressed.data(), compressed.size(), raw.data(), raw.size(), 3);
  if (ZSTD_isError(size)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(size));
  compressed.resize(size);
  std::string file(kMagic, sizeof kMagic);
  put<std::uint32_t>(file, static_cast<std::uint32_t>(games));
  put<std::uint32_t>(file, static_cast<std::uint32_t>(samples.size()));
  file += compressed;
  write_file_atomically(path, file);
}

namespace {

constexpr std::size_t kHeaderSize = 12;

std::string read_header_checked(const std::string& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read chunk '" + path + "'");
  std::string file;
  if (bytes == 0) file.assign(std::istreambuf_iterator<char>(in), {});
  else {
    file.resize(bytes);
    in.read(file.data(), bytes);
    file.resize(in.gcount());
  }
  if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, 4) != 0)
    throw std::runtime_error("'" + path + "' is not an ataxx-zero game chunk");
  return file;
}

}  // namespace

int chunk_games(const std::string& path) {
  const std::string header = read_header_checked(path, kHeaderSize);
  std::uint32_t games;
  std::memcpy(&games, header.data() + 4, 4);
  return static_cast<int>(games);
}

std::vector<TrainingSample> read_chunk(const std::string& path) {
  const std::string file = read_header_checked(path, 0);
  std::uint32_t count;
  std::memcpy(&count, file.data() + 8, 4);
  const std::string_view compressed(file.data() + kHeaderSize, file.size() - kHeaderSize);
  const unsigned long long raw_size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (raw_size == ZSTD_CONTENTSIZE_ERROR || raw_size == ZSTD_CONTENTSIZE_UNKNOWN)
    throw std::runtime_error("chunk '" + path + "' is corrupt");
  std::string raw(raw_size, '\0');
  const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(got) || got != raw_size) throw std::runtime_error("chunk '" + path + "' is corrupt");

  Reader reader(raw, path);
  std::vector<TrainingSample> samples(count);
  for (TrainingSample& s : samples) {
    const Bitboard x = reader.get<Bitboard>(), o = reader.get<Bitboard>(), gaps = reader.get<Bitboard>();
    const auto side = static_cast<Color>(reader.get<std::uint8_t>() & 1);
    const int halfmove = reader.get<std::uint16_t>();
    const int fullmove = reader.get<std::uint16_t>();
    try {
      s.position = Position::from_bitboards(x, o, gaps, side, halfmove, fullmove);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("chunk '" + path + "' holds an impossible position: " + e.what());
    }
    s.root_value = reader.get<float>();
    s.result = reader.get<std::int8_t>();
    s.final_x = reader.get<Bitboard>();
    s.final_o = reader.get<Bitboard>();
    s.visits.resize(reader.get<std::uint16_t>());
    for (auto& [index, visits] : s.visits) {
      index = reader.get<std::uint16_t>();
      visits = reader.get<std::uint16_t>();
    }
  }
  if (!reader.done()) throw std::runtime_error("chunk '" + path + "' has trailing data");
  return samples;
}

}  // namespace ataxx
