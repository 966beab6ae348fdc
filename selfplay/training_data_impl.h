// The template definitions of selfplay/training_data.h: included by training_data.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "selfplay/training_data.h"
#include "selfplay/zstd_frame.h"
#include "util/atomic_file.h"

namespace ataxx {
namespace {

constexpr std::size_t kHeaderSize = 12;  // magic, games, samples
// The model table: a count of 2 bytes, then each name as a length byte and its text.
constexpr std::size_t kMaxModelTableSize = 2 + kMaxChunkModels * (1 + kMaxModelNameLength);
// A sample's flags.
constexpr std::uint8_t kFinalBoardKnown = 1, kStartsGame = 2, kKnownFlags = kFinalBoardKnown | kStartsGame;

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw std::runtime_error("chunk '" + name + "': " + what);
}

struct Header {
  std::string_view game;  // its codec's game (G::Chunk::version_of)
  int version = 0;
  std::uint32_t games = 0;
  std::uint32_t samples = 0;
};

// The header of a chunk of the games Gs... (one a caller plays, if any) or of games/registry.h's.
template <typename... Gs>
Header parse_header(std::string_view bytes, const std::string& name) {
  if (bytes.size() < kHeaderSize) fail(name, "not an ataxx-zero game chunk (too short)");
  Header header;
  auto claim = [&]<typename G>() {
    if (const int version = G::Chunk::version_of(bytes.substr(0, 4)); version > 0 && header.version == 0)
      header = {G::kName, version};
  };
  (claim.template operator()<Gs>(), ...);
  Games::for_each(claim);
  if (header.version == 0) fail(name, "not an ataxx-zero game chunk");
  std::memcpy(&header.games, bytes.data() + 4, 4);
  std::memcpy(&header.samples, bytes.data() + 8, 4);
  if (header.games > kMaxChunkGames || header.samples > kMaxChunkSamples)
    fail(name, "claims " + std::to_string(header.games) + " games and " + std::to_string(header.samples) +
                   " samples, more than a chunk may hold");
  return header;
}

// What read runs on the frame (selfplay/zstd_frame.h), its errors said as the chunk's.
template <typename Read>
auto frame_or_fail(const std::string& name, const Read& read) {
  try {
    return read();
  } catch (const std::runtime_error& e) {
    fail(name, e.what());
  }
}

// The decompressed samples, after checking the frame's claimed size against what the header
// allows and that the frame carries its checksum where the layout asks (verified by zstd on the way).
std::string decompress(std::string_view frame, const Header& header, const ChunkLayout& layout, const std::string& name) {
  const ZstdFrameInfo info = frame_or_fail(name, [&] { return read_frame_info(frame); });
  const std::size_t table = layout.models ? kMaxModelTableSize : 0;
  if (info.content_size < header.samples * layout.least_sample_bytes ||
      info.content_size > header.samples * layout.most_sample_bytes + table)
    fail(name, "the compressed size does not fit " + std::to_string(header.samples) + " samples");
  if (layout.checksum && !info.checksum) fail(name, "the compressed data has no checksum");
  return frame_or_fail(name, [&] { return decompress_frame(frame, info.content_size); });
}

// A search's visits name each move once: a sample that names one twice was not written by self-play.
template <typename Visits>
void refuse_repeated_moves(const Visits& visits) {
  for (std::size_t i = 1; i < visits.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (visits[i].first == visits[j].first) throw std::invalid_argument("a sample lists the same move twice");
}

std::vector<std::string> read_models(ByteReader& in) {
  const std::size_t count = in.get<std::uint16_t>();
  if (count > kMaxChunkModels) throw std::invalid_argument("names " + std::to_string(count) + " models");
  std::vector<std::string> models(count);
  for (std::string& model : models) {
    const std::size_t length = in.get<std::uint8_t>();
    if (length > kMaxModelNameLength)
      throw std::invalid_argument("a model name has " + std::to_string(length) + " characters");
    for (std::size_t i = 0; i < length; ++i) {
      const char c = in.get<char>();
      if (c < '!' || c > '~') throw std::invalid_argument("a model name holds a character that is not printable");
      model += c;
    }
  }
  return models;
}

// A sample: the game's position, what every game's samples carry (root value, result, the
// layout's flags and model, final men), then the visited moves in the game's bytes.
template <typename G>
BasicTrainingSample<G> read_sample(ByteReader& in, int version, const ChunkLayout& layout,
                                   const std::vector<std::string>& models) {
  using Chunk = typename G::Chunk;
  BasicTrainingSample<G> s;
  s.position = Chunk::read_position(in, version);
  s.root_value = in.get<float>();
  if (!(std::abs(s.root_value) <= 1.0f)) throw std::invalid_argument("a sample's root value is not in [-1, 1]");
  s.result = in.get<std::int8_t>();
  if (s.result < -1 || s.result > 1) throw std::invalid_argument("a sample's result is not -1, 0 or 1");
  if (layout.flags) {
    const std::uint8_t flags = in.get<std::uint8_t>();
    if (flags & ~(layout.game_starts ? kKnownFlags : kFinalBoardKnown))
      throw std::invalid_argument("a sample has unknown flags");
    s.final_board_known = flags & kFinalBoardKnown;
    s.starts_game = flags & kStartsGame;
  }
  if (layout.models) {
    const std::size_t model = in.get<std::uint16_t>();
    if (model >= models.size())
      throw std::invalid_argument("a sample's model " + std::to_string(model) + " is not in the chunk's table");
    s.model = models[model];
  }
  s.final_x = in.get<Bitboard>();
  s.final_o = in.get<Bitboard>();
  if ((s.final_x & s.final_o) || ((s.final_x | s.final_o) & ~Chunk::cells(s.position)))
    throw std::invalid_argument("a sample's final board is impossible");
  const int count = in.get<std::uint16_t>();
  if (count > G::kMaxMoves) throw std::invalid_argument("a sample has " + std::to_string(count) + " visited moves");
  s.visits.resize(count);
  const typename Chunk::MoveReader moves(s.position, version);
  for (auto& [move, visits] : s.visits) {
    move = moves.read(in);
    visits = in.get<std::uint16_t>();
    if (visits == 0) throw std::invalid_argument("a sample lists a move with no visits");
  }
  refuse_repeated_moves(s.visits);
  return s;
}

// Where each game of a chunk that does not mark them starts: a sample continues the game before
// it where both end on the same final board (or were both resigned) and it is the same position
// (a copy written for its surprise) or a later one. Two resigned games in a row can read as one.
template <typename G>
void guess_game_starts(std::vector<BasicTrainingSample<G>>& samples) {
  auto ply = [](const typename G::Position& pos) { return 2 * pos.fullmove_number() + index(pos.side_to_move()); };
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const BasicTrainingSample<G>& now = samples[i];
    const BasicTrainingSample<G>* before = i > 0 ? &samples[i - 1] : nullptr;
    const bool continues = before && before->final_board_known == now.final_board_known &&
                           before->final_x == now.final_x && before->final_o == now.final_o &&
                           (before->position == now.position || ply(before->position) < ply(now.position));
    samples[i].starts_game = !continues;
  }
}

std::string read_file(const std::string& path, std::size_t at_most) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read chunk '" + path + "'");
  std::string bytes(at_most, '\0');
  if (at_most == 0) {
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  } else {
    in.read(bytes.data(), static_cast<std::streamsize>(at_most));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
  }
  return bytes;
}

// What read_sample reads back, in the game's latest layout (the one of G::Chunk::kMagic, which
// carries every shared field: flags, model and checksum).
template <typename G>
void put_sample(std::string& raw, const BasicTrainingSample<G>& s, std::uint16_t model) {
  if (s.visits.size() > static_cast<std::size_t>(G::kMaxMoves))
    throw std::invalid_argument("a sample lists " + std::to_string(s.visits.size()) + " moves");
  G::Chunk::put_position(raw, s.position);
  put_bytes(raw, s.root_value);
  put_bytes(raw, s.result);
  put_bytes<std::uint8_t>(raw, (s.final_board_known ? kFinalBoardKnown : 0) | (s.starts_game ? kStartsGame : 0));
  put_bytes(raw, model);
  put_bytes(raw, s.final_x);
  put_bytes(raw, s.final_o);
  put_bytes<std::uint16_t>(raw, static_cast<std::uint16_t>(s.visits.size()));
  for (const auto& [move, count] : s.visits) {
    G::Chunk::put_move(raw, move);
    put_bytes(raw, count);
  }
}

}  // namespace

template <typename G>
void write_chunk(const std::string& path, int games, const std::vector<BasicTrainingSample<G>>& samples) {
  std::vector<std::string> models;
  for (const auto& s : samples)
    if (std::find(models.begin(), models.end(), s.model) == models.end()) models.push_back(s.model);
  if (models.size() > kMaxChunkModels) throw std::invalid_argument("a chunk holds games of too many models");
  std::string raw;
  raw.reserve(samples.size() * G::Chunk::layout(G::Chunk::version_of(G::Chunk::kMagic)).least_sample_bytes);
  put_bytes<std::uint16_t>(raw, static_cast<std::uint16_t>(models.size()));
  for (const std::string& model : models) {
    if (model.size() > kMaxModelNameLength ||
        std::any_of(model.begin(), model.end(), [](char c) { return c < '!' || c > '~'; }))
      throw std::invalid_argument("model name '" + model + "' cannot go into a chunk");
    put_bytes<std::uint8_t>(raw, static_cast<std::uint8_t>(model.size()));
    raw += model;
  }
  for (const auto& s : samples)
    put_sample(raw, s, static_cast<std::uint16_t>(std::find(models.begin(), models.end(), s.model) - models.begin()));
  std::string file(G::Chunk::kMagic);
  put_bytes<std::uint32_t>(file, static_cast<std::uint32_t>(games));
  put_bytes<std::uint32_t>(file, static_cast<std::uint32_t>(samples.size()));
  file += compress_frame(raw);
  write_file_atomically(path, file);
}

template <typename G>
std::vector<BasicTrainingSample<G>> parse_chunk(std::string_view bytes, const std::string& name) {
  const Header header = parse_header<G>(bytes, name);
  if (header.game != G::kName)
    fail(name, "holds games of " + std::string(header.game) + ", not of " + std::string(G::kName));
  const ChunkLayout layout = G::Chunk::layout(header.version);
  const std::string raw = decompress(bytes.substr(kHeaderSize), header, layout, name);
  ByteReader reader(raw);
  std::vector<BasicTrainingSample<G>> samples;
  try {
    const std::vector<std::string> models = layout.models ? read_models(reader) : std::vector<std::string>{};
    samples.reserve(header.samples);
    for (std::uint32_t i = 0; i < header.samples; ++i)
      samples.push_back(read_sample<G>(reader, header.version, layout, models));
  } catch (const std::invalid_argument& e) {
    fail(name, e.what());
  }
  if (!reader.done()) fail(name, "trailing data after the samples");
  if (!layout.game_starts) {
    if constexpr (requires(const typename G::Position& pos) { pos.fullmove_number(); })  // the games with old chunks
      guess_game_starts(samples);
  } else if (std::count_if(samples.begin(), samples.end(), [](const auto& s) { return s.starts_game; }) >
             header.games) {
    fail(name, "starts more games than the " + std::to_string(header.games) + " it claims");
  }
  return samples;
}

template <typename G>
std::vector<BasicTrainingSample<G>> read_chunk(const std::string& path) {
  return parse_chunk<G>(read_file(path, 0), path);
}

template <typename... Gs>
ChunkCounts chunk_counts(const std::string& path) {
  const Header header = parse_header<Gs...>(read_file(path, kHeaderSize), path);
  return {std::string(header.game), static_cast<int>(header.games), static_cast<int>(header.samples)};
}

}  // namespace ataxx
