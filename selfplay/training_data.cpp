#include "selfplay/training_data.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader: the frame's checksum flag
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "util/atomic_file.h"

namespace ataxx {
namespace {

constexpr char kMagicV1[4] = {'A', 'X', 'Z', '1'};
constexpr char kMagicV2[4] = {'A', 'X', 'Z', '2'};
constexpr char kMagicV3[4] = {'A', 'X', 'Z', '3'};
constexpr char kMagicV4[4] = {'A', 'X', 'Z', '4'};
constexpr char kSchataxxMagicV1[4] = {'S', 'X', 'Z', '1'};
constexpr std::size_t kHeaderSize = 12;  // magic, games, samples
// Bytes of a sample: position 3 x 8 + 1 + 2 + 2, board 1 (version 4), root value 4, result 1,
// flags 1 (version 2 on), model 2 (version 3 on), final board 2 x 8, visit count 2, then 4 a
// visited move: its policy index on 7x7 and a count up to version 3, from, to and a count in 4.
std::size_t fixed_sample_size(int version) { return version == 1 ? 52 : version == 2 ? 53 : version == 3 ? 55 : 56; }
// The model table of version 3: a count of 2 bytes, then each name as a length byte and its text.
constexpr std::size_t kMaxModelTableSize = 2 + kMaxChunkModels * (1 + kMaxModelNameLength);
// Output grows by at most this much at a time as it comes.
constexpr std::size_t kDecompressionStep = std::size_t{1} << 20;

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw std::runtime_error("chunk '" + name + "': " + what);
}

class Reader {
 public:
  Reader(std::string_view data, const std::string& name) : data_(data), name_(name) {}
  template <typename T>
  T get() {
    if (data_.size() < sizeof(T)) fail(name_, "truncated");
    T value;
    std::memcpy(&value, data_.data(), sizeof value);
    data_.remove_prefix(sizeof value);
    return value;
  }
  bool done() const { return data_.empty(); }

 private:
  std::string_view data_;
  const std::string& name_;
};

// Schataxx samples: FEN length 1 and text, variant 1, root value 4, result 1, flags 1, model 2,
// final men 2 x 8, visit count 2, then 5 a visited move: from, to, dropped type, count.
constexpr std::size_t kSchataxxFixedSampleSize = 28;
constexpr std::size_t kSchataxxMoveSize = 5;
constexpr std::size_t kMaxFenLength = 255;

struct Header {
  std::string_view game = AtaxxGame::kName;
  int version = 0;
  std::uint32_t games = 0;
  std::uint32_t samples = 0;
};

Header parse_header(std::string_view bytes, const std::string& name) {
  if (bytes.size() < kHeaderSize) fail(name, "not an ataxx-zero game chunk (too short)");
  Header header;
  if (std::memcmp(bytes.data(), kSchataxxMagicV1, 4) == 0) {
    header.game = SchataxxGame::kName;
    header.version = 1;
  } else if (std::memcmp(bytes.data(), kMagicV4, 4) == 0)
    header.version = 4;
  else if (std::memcmp(bytes.data(), kMagicV3, 4) == 0)
    header.version = 3;
  else if (std::memcmp(bytes.data(), kMagicV2, 4) == 0)
    header.version = 2;
  else if (std::memcmp(bytes.data(), kMagicV1, 4) == 0)
    header.version = 1;
  else
    fail(name, "not an ataxx-zero game chunk");
  std::memcpy(&header.games, bytes.data() + 4, 4);
  std::memcpy(&header.samples, bytes.data() + 8, 4);
  if (header.games > kMaxChunkGames || header.samples > kMaxChunkSamples)
    fail(name, "claims " + std::to_string(header.games) + " games and " + std::to_string(header.samples) +
                   " samples, more than a chunk may hold");
  return header;
}

// The frame's content, which must be `claimed` bytes long. Memory grows with what the frame
// really holds as it is decompressed, never with the claim: a frame of a few bytes that claims
// gigabytes fails after at most a block's worth (what zstd's run-length blocks can make of them).
std::string decompress_frame(std::string_view frame, std::size_t claimed, const std::string& name) {
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context) throw std::bad_alloc();
  std::string raw;
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  std::size_t left = 1;  // ZSTD_decompressStream's hint: 0 once the frame is whole
  while (left != 0) {
    const std::size_t used = raw.size();
    raw.resize(used + std::min(kDecompressionStep, claimed + 1 - used));  // one byte more: a longer frame shows
    ZSTD_outBuffer out{raw.data(), raw.size(), used};
    left = ZSTD_decompressStream(context.get(), &out, &in);
    raw.resize(out.pos);
    if (ZSTD_isError(left)) fail(name, std::string("the compressed data is damaged (") + ZSTD_getErrorName(left) + ")");
    if (raw.size() > claimed) fail(name, "the compressed data is longer than it says");
    if (left != 0 && in.pos == in.size && out.pos < out.size) fail(name, "the compressed data is truncated");
  }
  if (raw.size() != claimed) fail(name, "the compressed data is shorter than it says");
  if (in.pos != in.size) fail(name, "trailing data after the compressed data");
  return raw;
}

// The decompressed samples, after checking the frame's claimed size against what the header
// allows and, in version 2, that the frame carries its checksum (verified by zstd on the way).
std::string decompress(std::string_view frame, const Header& header, const std::string& name) {
  ZSTD_frameHeader info;
  if (ZSTD_getFrameHeader(&info, frame.data(), frame.size()) != 0 || info.frameType != ZSTD_frame)
    fail(name, "the compressed data is damaged");
  if (info.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN) fail(name, "the compressed data has no size");
  const bool schataxx = header.game == SchataxxGame::kName;
  const std::size_t fixed = schataxx ? kSchataxxFixedSampleSize : fixed_sample_size(header.version);
  const std::size_t most = schataxx ? fixed + kMaxFenLength + kSchataxxMoveSize * schataxx::kMaxMoves : fixed + 4 * kMaxMoves;
  const std::size_t table = schataxx || header.version >= 3 ? kMaxModelTableSize : 0;
  if (info.frameContentSize < header.samples * fixed || info.frameContentSize > header.samples * most + table)
    fail(name, "the compressed size does not fit " + std::to_string(header.samples) + " samples");
  if ((schataxx || header.version >= 2) && !info.checksumFlag) fail(name, "the compressed data has no checksum");
  return decompress_frame(frame, info.frameContentSize, name);
}

Position read_position(Reader& in, int version, const std::string& name) {
  const Bitboard x = in.get<Bitboard>(), o = in.get<Bitboard>(), gaps = in.get<Bitboard>();
  const std::uint8_t side = in.get<std::uint8_t>();
  const int halfmove = in.get<std::uint16_t>();
  const int fullmove = in.get<std::uint16_t>();
  const std::uint8_t board_id = version >= 4 ? in.get<std::uint8_t>() : static_cast<std::uint8_t>(BoardId::k7x7);
  if (side > 1) fail(name, "a sample has side to move " + std::to_string(side));
  if (board_id >= kNumBoards) fail(name, "a sample is on unknown board " + std::to_string(board_id));
  try {
    return Position::from_bitboards(board(static_cast<BoardId>(board_id)), x, o, gaps, static_cast<Color>(side),
                                    halfmove, fullmove);
  } catch (const std::invalid_argument& e) {
    fail(name, std::string("a sample holds an impossible position: ") + e.what());
  }
}

// A move of version 4: from and to, a pass or a single or a jump of the sample's board.
// A search's visits name each move once: a sample that names one twice was not written by self-play.
template <typename Visits>
void refuse_repeated_moves(const Visits& visits, const std::string& name) {
  for (std::size_t i = 1; i < visits.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (visits[i].first == visits[j].first) fail(name, "a sample lists the same move twice");
}

Move read_move(Reader& in, const Board& board, const std::string& name) {
  const Move move{in.get<std::uint8_t>(), in.get<std::uint8_t>()};
  // Both cells are checked before either indexes a table or a shift.
  const bool is_move = move.is_pass() ? move.from == Move::kPassSquare
                       : move.is_single() ? board.has_cell(move.to)
                                          : board.has_cell(move.from) && board.has_cell(move.to) &&
                                                (board.jump_targets[move.from] & bit(move.to));
  if (!is_move) fail(name, "a sample lists a move that is not one on the " + std::string(board.name) + " board");
  return move;
}

// A move as chunks up to version 3 wrote it: its index in the 7x7 policy of encoding version 1,
// destination * 17 + kind (0 a single, then the 16 jump sources by offset), 833 the pass.
Move legacy_move(int index, const std::string& name) {
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
  fail(name, "a sample's policy index " + std::to_string(index) + " is not a move");
}

std::vector<std::string> read_models(Reader& in, const std::string& name) {
  const std::size_t count = in.get<std::uint16_t>();
  if (count > kMaxChunkModels) fail(name, "names " + std::to_string(count) + " models");
  std::vector<std::string> models(count);
  for (std::string& model : models) {
    const std::size_t length = in.get<std::uint8_t>();
    if (length > kMaxModelNameLength) fail(name, "a model name has " + std::to_string(length) + " characters");
    for (std::size_t i = 0; i < length; ++i) {
      const char c = in.get<char>();
      if (c < '!' || c > '~') fail(name, "a model name holds a character that is not printable");
      model += c;
    }
  }
  return models;
}

TrainingSample read_sample(Reader& in, int version, const std::vector<std::string>& models, const std::string& name) {
  TrainingSample s;
  s.position = read_position(in, version, name);
  s.root_value = in.get<float>();
  if (!(std::abs(s.root_value) <= 1.0f)) fail(name, "a sample's root value is not in [-1, 1]");
  s.result = in.get<std::int8_t>();
  if (s.result < -1 || s.result > 1) fail(name, "a sample's result is not -1, 0 or 1");
  if (version >= 2) {
    const std::uint8_t flags = in.get<std::uint8_t>();
    if (flags > 1) fail(name, "a sample has unknown flags");
    s.final_board_known = flags == 1;
  }
  if (version >= 3) {
    const std::size_t model = in.get<std::uint16_t>();
    if (model >= models.size()) fail(name, "a sample's model " + std::to_string(model) + " is not in the chunk's table");
    s.model = models[model];
  }
  s.final_x = in.get<Bitboard>();
  s.final_o = in.get<Bitboard>();
  const Board& board = s.position.board();
  if ((s.final_x & s.final_o) || ((s.final_x | s.final_o) & ~board.cells))
    fail(name, "a sample's final board is impossible");
  const int count = in.get<std::uint16_t>();
  if (count > kMaxMoves) fail(name, "a sample has " + std::to_string(count) + " visited moves");
  s.visits.resize(count);
  for (auto& [move, visits] : s.visits) {
    move = version >= 4 ? read_move(in, board, name) : legacy_move(in.get<std::uint16_t>(), name);
    visits = in.get<std::uint16_t>();
    if (visits == 0) fail(name, "a sample lists a move with no visits");
  }
  refuse_repeated_moves(s.visits, name);
  return s;
}

// What both games' samples carry after the position: root value, result, flags, model, final men.
template <typename G>
void read_outcome(Reader& in, BasicTrainingSample<G>& s, const std::vector<std::string>& models, const std::string& name) {
  s.root_value = in.get<float>();
  if (!(std::abs(s.root_value) <= 1.0f)) fail(name, "a sample's root value is not in [-1, 1]");
  s.result = in.get<std::int8_t>();
  if (s.result < -1 || s.result > 1) fail(name, "a sample's result is not -1, 0 or 1");
  const std::uint8_t flags = in.get<std::uint8_t>();
  if (flags > 1) fail(name, "a sample has unknown flags");
  s.final_board_known = flags == 1;
  const std::size_t model = in.get<std::uint16_t>();
  if (model >= models.size()) fail(name, "a sample's model " + std::to_string(model) + " is not in the chunk's table");
  s.model = models[model];
  s.final_x = in.get<Bitboard>();
  s.final_o = in.get<Bitboard>();
  if (s.final_x & s.final_o) fail(name, "a sample's final board is impossible");
}

schataxx::Position read_schataxx_position(Reader& in, const std::string& name) {
  const std::size_t length = in.get<std::uint8_t>();
  std::string fen(length, '\0');
  for (char& c : fen) c = in.get<char>();
  const std::uint8_t variant = in.get<std::uint8_t>();
  if (variant > static_cast<std::uint8_t>(schataxx::Variant::kUnlimited))
    fail(name, "a sample has unknown variant " + std::to_string(variant));
  try {
    return schataxx::Position::from_fen(fen, static_cast<schataxx::Variant>(variant));
  } catch (const std::invalid_argument& e) {
    fail(name, std::string("a sample holds an impossible position: ") + e.what());
  }
}

BasicTrainingSample<SchataxxGame> read_schataxx_sample(Reader& in, const std::vector<std::string>& models,
                                                       const std::string& name) {
  BasicTrainingSample<SchataxxGame> s;
  s.position = read_schataxx_position(in, name);
  read_outcome(in, s, models, name);
  const int count = in.get<std::uint16_t>();
  if (count > schataxx::kMaxMoves) fail(name, "a sample has " + std::to_string(count) + " visited moves");
  s.visits.resize(count);
  schataxx::MoveList legal;  // once a sample: each move is looked up in it
  s.position.generate_moves(legal);
  for (auto& [move, visits] : s.visits) {
    move.from = in.get<std::uint8_t>();
    move.to = in.get<std::uint8_t>();
    const std::uint8_t drop = in.get<std::uint8_t>();
    if (drop > static_cast<std::uint8_t>(schataxx::PieceType::kNone)) fail(name, "a sample drops an unknown man");
    move.drop = static_cast<schataxx::PieceType>(drop);
    if (std::find(legal.begin(), legal.end(), move) == legal.end())
      fail(name, "a sample lists a move that is not legal in its position");
    visits = in.get<std::uint16_t>();
    if (visits == 0) fail(name, "a sample lists a move with no visits");
  }
  refuse_repeated_moves(s.visits, name);
  return s;
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

// What read_outcome reads back.
template <typename G>
void put_outcome(std::string& raw, const BasicTrainingSample<G>& s, std::uint16_t model) {
  put(raw, s.root_value);
  put(raw, s.result);
  put<std::uint8_t>(raw, s.final_board_known ? 1 : 0);
  put(raw, model);
  put(raw, s.final_x);
  put(raw, s.final_o);
}

void put_sample(std::string& raw, const TrainingSample& s, std::uint16_t model) {
  const Position& p = s.position;
  if (s.visits.size() > static_cast<std::size_t>(kMaxMoves))
    throw std::invalid_argument("a sample lists " + std::to_string(s.visits.size()) + " moves");
  put(raw, p.pieces(Color::kX));
  put(raw, p.pieces(Color::kO));
  put(raw, p.gaps());
  put<std::uint8_t>(raw, static_cast<std::uint8_t>(p.side_to_move()));
  // 16 bits, saturated: the network sees the clock only up to 100.
  put<std::uint16_t>(raw, static_cast<std::uint16_t>(std::min(p.halfmove_clock(), 65535)));
  put<std::uint16_t>(raw, static_cast<std::uint16_t>(std::min(p.fullmove_number(), 65535)));
  put<std::uint8_t>(raw, static_cast<std::uint8_t>(p.board().id));
  put_outcome(raw, s, model);
  put<std::uint16_t>(raw, static_cast<std::uint16_t>(s.visits.size()));
  for (const auto& [move, count] : s.visits) {
    put(raw, move.from);
    put(raw, move.to);
    put(raw, count);
  }
}

void put_sample(std::string& raw, const BasicTrainingSample<SchataxxGame>& s, std::uint16_t model) {
  const std::string fen = s.position.fen();
  if (fen.size() > kMaxFenLength) throw std::invalid_argument("a sample's FEN is too long for a chunk: " + fen);
  put<std::uint8_t>(raw, static_cast<std::uint8_t>(fen.size()));
  raw += fen;
  put<std::uint8_t>(raw, static_cast<std::uint8_t>(s.position.variant()));
  put_outcome(raw, s, model);
  put<std::uint16_t>(raw, static_cast<std::uint16_t>(s.visits.size()));
  for (const auto& [move, count] : s.visits) {
    put(raw, move.from);
    put(raw, move.to);
    put<std::uint8_t>(raw, static_cast<std::uint8_t>(move.drop));
    put(raw, count);
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
  raw.reserve(samples.size() * fixed_sample_size(4));
  put<std::uint16_t>(raw, static_cast<std::uint16_t>(models.size()));
  for (const std::string& model : models) {
    if (model.size() > kMaxModelNameLength ||
        std::any_of(model.begin(), model.end(), [](char c) { return c < '!' || c > '~'; }))
      throw std::invalid_argument("model name '" + model + "' cannot go into a chunk");
    put<std::uint8_t>(raw, static_cast<std::uint8_t>(model.size()));
    raw += model;
  }
  for (const auto& s : samples)
    put_sample(raw, s, static_cast<std::uint16_t>(std::find(models.begin(), models.end(), s.model) - models.begin()));
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> context(ZSTD_createCCtx(), ZSTD_freeCCtx);
  ZSTD_CCtx_setParameter(context.get(), ZSTD_c_compressionLevel, 3);
  ZSTD_CCtx_setParameter(context.get(), ZSTD_c_checksumFlag, 1);
  std::string compressed(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t size = ZSTD_compress2(context.get(), compressed.data(), compressed.size(), raw.data(), raw.size());
  if (ZSTD_isError(size)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(size));
  compressed.resize(size);
  std::string file(std::is_same_v<G, SchataxxGame> ? kSchataxxMagicV1 : kMagicV4, 4);
  put<std::uint32_t>(file, static_cast<std::uint32_t>(games));
  put<std::uint32_t>(file, static_cast<std::uint32_t>(samples.size()));
  file += compressed;
  write_file_atomically(path, file);
}

template <typename G>
std::vector<BasicTrainingSample<G>> parse_chunk(std::string_view bytes, const std::string& name) {
  const Header header = parse_header(bytes, name);
  if (header.game != G::kName)
    fail(name, "holds games of " + std::string(header.game) + ", not of " + std::string(G::kName));
  const std::string raw = decompress(bytes.substr(kHeaderSize), header, name);
  Reader reader(raw, name);
  const bool has_models = header.game == SchataxxGame::kName || header.version >= 3;
  const std::vector<std::string> models = has_models ? read_models(reader, name) : std::vector<std::string>{};
  std::vector<BasicTrainingSample<G>> samples;
  samples.reserve(header.samples);
  for (std::uint32_t i = 0; i < header.samples; ++i) {
    if constexpr (std::is_same_v<G, SchataxxGame>)
      samples.push_back(read_schataxx_sample(reader, models, name));
    else
      samples.push_back(read_sample(reader, header.version, models, name));
  }
  if (!reader.done()) fail(name, "trailing data after the samples");
  return samples;
}

template <typename G>
std::vector<BasicTrainingSample<G>> read_chunk(const std::string& path) {
  return parse_chunk<G>(read_file(path, 0), path);
}

ChunkCounts chunk_counts(const std::string& path) {
  const Header header = parse_header(read_file(path, kHeaderSize), path);
  return {std::string(header.game), static_cast<int>(header.games), static_cast<int>(header.samples)};
}

#define ATAXX_CHUNKS(G)                                                                                      \
  template void write_chunk<G>(const std::string&, int, const std::vector<BasicTrainingSample<G>>&);        \
  template std::vector<BasicTrainingSample<G>> read_chunk<G>(const std::string&);                           \
  template std::vector<BasicTrainingSample<G>> parse_chunk<G>(std::string_view, const std::string&);
ATAXX_FOR_EACH_GAME(ATAXX_CHUNKS)
#undef ATAXX_CHUNKS

}  // namespace ataxx
