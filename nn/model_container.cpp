#include "nn/model_container.h"

#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "nn/built_in_nets.h"

namespace ataxx {
namespace {

constexpr ModelShape kLargestShape{64, 1024};

// LibTorch 1.13's unpickler can crash on a damaged archive (found by fuzz_model_file), so a damaged
// file must be refused before LibTorch reads it. Files of the first release are bare archives (a
// zip: "PK\3\4"): they load, unchecked, only when the user says so.
constexpr char kContainerMagic[4] = {'A', 'X', 'Z', 'M'};
constexpr const char* kUncheckedVariable = "ATAXX_LOAD_BARE_MODEL_FILES";
constexpr std::size_t kContainerHeader = 16;
// A run's models/best holds its best model's name on one line ("gen-0415\n").
constexpr std::uintmax_t kLongestBestPointer = 64;

std::uint32_t crc32_of(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      ::crc32(::crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

std::int64_t get_int(const ModelFields& fields, const std::string& key, const std::string& path) {
  switch (fields.type(key)) {
    case ModelFields::Type::kInteger:
      return fields.integer(key);
    case ModelFields::Type::kMissing:
      throw ModelFileError("model file '" + path + "' lacks the field '" + key + "'");
    default:
      throw ModelFileError("model file '" + path + "': the field '" + key + "' is not an integer");
  }
}

std::string get_string(const ModelFields& fields, const std::string& key, const std::string& path) {
  switch (fields.type(key)) {
    case ModelFields::Type::kText:
      return fields.text(key);
    case ModelFields::Type::kMissing:
      throw ModelFileError("model file '" + path + "' lacks the field '" + key + "'");
    default:
      throw ModelFileError("model file '" + path + "': the field '" + key + "' is not text");
  }
}

int get_int_in(const ModelFields& fields, const std::string& key, const std::string& path, std::int64_t min,
               std::int64_t max) {
  const std::int64_t value = get_int(fields, key, path);
  if (value < min || value > max)
    throw ModelFileError("model file '" + path + "': " + key + " = " + std::to_string(value) + " is outside [" +
                         std::to_string(min) + ", " + std::to_string(max) + "]");
  return static_cast<int>(value);
}

// Rules are required in play files; checkpoints written before they carried rules get the defaults.
RuleSettings read_rules(const ModelFields& fields, const std::string& path, bool required) {
  RuleSettings rules;
  if (!required && fields.type("halfmove_limit") == ModelFields::Type::kMissing) return rules;
  rules.halfmove_limit = get_int_in(fields, "halfmove_limit", path, 0, 10000);
  rules.repetition_limit = get_int_in(fields, "repetition_limit", path, 0, 100);
  return rules;
}

// What the network reads: its game, and Ataxx's boards; and its planes, by the reader's io_of.
struct Inputs {
  std::string game;
  BoardSet boards;
  NetworkIo io{};
};

// Files of encoding 1 (7x7 only, before the board family) carry no "boards" and, as checkpoints,
// no encoding version: their networks have another shape. Files without a game are the
// first game's (Ataxx's, the only one when they were written).
Inputs read_encoding(const ModelFields& fields, const std::string& path, NetworkIoOf io_of) {
  const std::int64_t version =
      fields.type("encoding_version") == ModelFields::Type::kInteger ? fields.integer("encoding_version") : 1;
  if (version != kEncodingVersion)
    throw ModelFileError("'" + path + "' uses input encoding " + std::to_string(version) +
                         "; this build encodes version " + std::to_string(kEncodingVersion) +
                         " (a network of encoding 1 needs an older build)");
  Inputs inputs{std::string(Games::First::kName), {}};
  if (fields.type("game") != ModelFields::Type::kMissing) inputs.game = get_string(fields, "game", path);
  try {
    inputs.boards = BoardSet::parse(get_string(fields, "boards", path));
  } catch (const std::invalid_argument& e) {
    throw ModelFileError("'" + path + "': " + e.what());
  }
  try {
    inputs.io = io_of(inputs.game, inputs.boards);
  } catch (const std::invalid_argument& e) {
    throw ModelFileError("'" + path + "' " + e.what());
  }
  return inputs;
}

std::uintmax_t model_file_size(const std::string& path) {
  if (const auto built_in = built_in_net(path)) return built_in->size();
  return std::filesystem::file_size(followed_best_pointer(path));
}

// The shape, which the file's size must be able to hold before a network of it is made: the
// residual blocks' 3x3 convolutions alone are 2 x 9 x channels^2 float32 weights a block (a
// small file that claims 64 x 1024 made 5 GB of weights before any was read).
ModelShape read_shape(const ModelFields& fields, const std::string& path) {
  const ModelShape shape{get_int_in(fields, "blocks", path, 1, kLargestShape.blocks),
                         get_int_in(fields, "channels", path, 1, kLargestShape.channels)};
  const std::uintmax_t least = std::uintmax_t{72} * shape.blocks * shape.channels * shape.channels;
  const std::uintmax_t size = model_file_size(path);
  if (size < least)
    throw ModelFileError("model file '" + path + "' claims a " + std::to_string(shape.blocks) + "x" +
                         std::to_string(shape.channels) + " network, whose weights need at least " +
                         std::to_string(least) + " bytes; the file has " + std::to_string(size));
  return shape;
}

}  // namespace

std::string followed_best_pointer(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.starts_with(kBuiltInPrefix) || !fs::is_regular_file(path, error) ||
      fs::file_size(path, error) > kLongestBestPointer)
    return path;
  std::ifstream in(path);
  std::string name;
  std::getline(in, name);
  if (!std::regex_match(name, std::regex("gen-[0-9]+"))) return path;
  const fs::path model = fs::path(path).parent_path() / (name + ".net");
  if (!fs::is_regular_file(model, error))
    throw ModelFileError("'" + path + "' names the run's best model " + name + ", but " + model.string() +
                         " is not there");
  return model.string();
}

std::string read_model_file(const std::string& path) {
  if (const auto built_in = built_in_net(path)) return std::string(*built_in);
  const std::string file = followed_best_pointer(path);
  if (std::filesystem::is_directory(file))
    throw ModelFileError("model file '" + path + "' is a folder: give a play file (a run's is RUN/models/best)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ModelFileError("cannot read model file '" + path + "'");
  // The first bytes say whether to read on: a big file of something else (or /dev/zero) is not read whole.
  std::string bytes(4, '\0');
  in.read(bytes.data(), 4);
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  if (bytes != std::string_view(kContainerMagic, 4) && bytes != std::string_view("PK\3\4", 4))
    throw DamagedModelFileError("'" + path + "' is not an ataxx-zero model file");
  bytes.append(std::istreambuf_iterator<char>(in), {});
  return bytes;
}

std::string_view model_archive(std::string_view file, const std::string& path) {
  if (file.starts_with(std::string_view("PK\3\4", 4))) {
    if (std::getenv(kUncheckedVariable)) return file;
    throw ModelFileError("'" + path +
                         "' is a bare LibTorch archive, as the first release (before 2026-11-22) wrote "
                         "model files: it has no checksum, and LibTorch's reader can crash on a damaged one, so it "
                         "is read only with " +
                         std::string(kUncheckedVariable) + "=1 set (for files you trust)");
  }
  if (file.size() < kContainerHeader || !file.starts_with(std::string_view(kContainerMagic, 4)))
    throw DamagedModelFileError("'" + path + "' is not an ataxx-zero model file");
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
  std::memcpy(&size, file.data() + 4, 8);
  std::memcpy(&crc, file.data() + 12, 4);
  const std::string_view payload = file.substr(kContainerHeader);
  if (payload.size() != size)
    throw DamagedModelFileError("model file '" + path + "' is truncated or has trailing bytes (" +
                                std::to_string(payload.size()) + " bytes where it says " + std::to_string(size) + ")");
  if (crc32_of(payload) != crc) throw DamagedModelFileError("model file '" + path + "' is damaged (checksum mismatch)");
  return payload;
}

std::string in_model_container(std::string_view archive) {
  std::string file(kContainerMagic, sizeof kContainerMagic);
  const std::uint64_t size = archive.size();
  const std::uint32_t crc = crc32_of(archive);
  file.append(reinterpret_cast<const char*>(&size), sizeof size);
  file.append(reinterpret_cast<const char*>(&crc), sizeof crc);
  file += archive;
  return file;
}

void check_format(const ModelFields& fields, std::string_view format, const std::string& path) {
  if (fields.type("format") != ModelFields::Type::kText)
    throw ModelFileError("'" + path + "' is a LibTorch archive but not an ataxx-zero model file");
  const std::string tag = fields.text("format");
  if (tag != format) throw ModelFileError("'" + path + "' is an " + tag + ", expected an " + std::string(format));
  const std::int64_t version = get_int(fields, "version", path);
  if (version != kModelFileVersion)
    throw ModelFileError("'" + path + "' has file version " + std::to_string(version) + "; this build reads version " +
                         std::to_string(kModelFileVersion));
}

ModelInfo read_play_header(const ModelFields& fields, const std::string& path, NetworkIoOf io_of) {
  ModelInfo info;
  auto [game, boards, io] = read_encoding(fields, path, io_of);
  info.game = std::move(game);
  info.boards = std::move(boards);
  info.io = io;
  info.encoding_version = kEncodingVersion;
  info.shape = read_shape(fields, path);
  info.rules = read_rules(fields, path, true);
  info.step = get_int(fields, "step", path);
  info.name = get_string(fields, "name", path);
  info.parent = get_string(fields, "parent", path);
  return info;
}

CheckpointInfo read_checkpoint_header(const ModelFields& fields, const std::string& path, NetworkIoOf io_of) {
  CheckpointInfo info;
  auto [game, boards, io] = read_encoding(fields, path, io_of);
  info.game = std::move(game);
  info.boards = std::move(boards);
  info.io = io;
  info.shape = read_shape(fields, path);
  info.rules = read_rules(fields, path, false);
  info.step = get_int(fields, "step", path);
  info.optimizer = get_string(fields, "optimizer_kind", path);
  info.config_yaml = get_string(fields, "config", path);
  return info;
}

}  // namespace ataxx
