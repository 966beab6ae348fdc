#include "nn/model_file.h"

#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>

#include "util/atomic_file.h"

namespace ataxx {
namespace {

constexpr const char* kPlayFormat = "ataxx-zero play file";
constexpr const char* kCheckpointFormat = "ataxx-zero checkpoint";
constexpr std::int64_t kFileVersion = 1;
constexpr const char* kSoftPolicyKey = "soft_policy";  // a checkpoint's optional AuxiliaryHead

void put(torch::serialize::OutputArchive& archive, const std::string& key, const c10::IValue& value) {
  archive.write(key, value);
}

constexpr ModelShape kLargestShape{64, 1024};

c10::IValue get(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  c10::IValue value;
  if (!archive.try_read(key, value)) throw ModelFileError("model file '" + path + "' lacks the field '" + key + "'");
  return value;
}

std::int64_t get_int(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  const c10::IValue value = get(archive, key, path);
  if (!value.isInt()) throw ModelFileError("model file '" + path + "': the field '" + key + "' is not an integer");
  return value.toInt();
}

std::string get_string(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  const c10::IValue value = get(archive, key, path);
  if (!value.isString()) throw ModelFileError("model file '" + path + "': the field '" + key + "' is not text");
  return value.toStringRef();
}

int get_int_in(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path,
               std::int64_t min, std::int64_t max) {
  const std::int64_t value = get_int(archive, key, path);
  if (value < min || value > max)
    throw ModelFileError("model file '" + path + "': " + key + " = " + std::to_string(value) + " is outside [" +
                         std::to_string(min) + ", " + std::to_string(max) + "]");
  return static_cast<int>(value);
}

// Runs `read`, turning whatever LibTorch throws on a damaged archive into a ModelFileError.
template <typename Read>
auto guarded(const std::string& path, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const ModelFileError&) {
    throw;
  } catch (const c10::Error& e) {
    const std::string what = e.what_without_backtrace();
    throw ModelFileError("model file '" + path + "' is damaged (" + what.substr(0, what.find('\n')) + ")");
  } catch (const std::exception& e) {
    throw ModelFileError("model file '" + path + "' is damaged (" + std::string(e.what()) + ")");
  }
}

// The container: "AXZM", the payload's size (8 bytes) and CRC-32 (4 bytes), then the LibTorch
// archive. LibTorch 1.13's unpickler can crash on a damaged archive (found by fuzz_model_file), so
// a damaged file must be refused before LibTorch reads it. Files of the first release are bare
// archives (a zip: "PK\3\4"): they load, unchecked, only when the user says so.
constexpr char kContainerMagic[4] = {'A', 'X', 'Z', 'M'};
constexpr const char* kUncheckedVariable = "ATAXX_LOAD_BARE_MODEL_FILES";
constexpr std::size_t kContainerHeader = 16;

std::uint32_t crc32_of(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      ::crc32(::crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelFileError("cannot read model file '" + path + "'");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The LibTorch archive inside a model file's bytes, checked.
std::string_view archive_bytes(std::string_view file, const std::string& path) {
  if (file.starts_with(std::string_view("PK\3\4", 4))) {
    if (std::getenv(kUncheckedVariable)) return file;
    throw ModelFileError("'" + path + "' is a bare LibTorch archive, as the first release (before 2026-11-22) wrote "
                         "model files: it has no checksum, and LibTorch's reader can crash on a damaged one, so it "
                         "is read only with " + std::string(kUncheckedVariable) + "=1 set (for files you trust)");
  }
  if (file.size() < kContainerHeader || !file.starts_with(std::string_view(kContainerMagic, 4)))
    throw ModelFileError("'" + path + "' is not an ataxx-zero model file");
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
  std::memcpy(&size, file.data() + 4, 8);
  std::memcpy(&crc, file.data() + 12, 4);
  const std::string_view payload = file.substr(kContainerHeader);
  if (payload.size() != size)
    throw ModelFileError("model file '" + path + "' is truncated or has trailing bytes (" + std::to_string(payload.size()) +
                         " bytes where it says " + std::to_string(size) + ")");
  if (crc32_of(payload) != crc) throw ModelFileError("model file '" + path + "' is damaged (checksum mismatch)");
  return payload;
}

// Opens an archive and checks its format tag and version.
// Every tensor of the archive lands on `device` (by default where it was saved).
torch::serialize::InputArchive open_archive(const std::string& path, const std::string& format,
                                            c10::optional<torch::Device> device = c10::nullopt) {
  torch::serialize::InputArchive archive;
  const std::string file = read_bytes(path);
  std::istringstream stream(std::string(archive_bytes(file, path)));
  try {
    archive.load_from(stream, device);
  } catch (const c10::Error& e) {
    const std::string what = e.what_without_backtrace();
    throw ModelFileError("cannot read model file '" + path + "': not an ataxx-zero model file, or truncated (" +
                         what.substr(0, what.find('\n')) + ")");
  }
  c10::IValue tag;
  if (!archive.try_read("format", tag) || !tag.isString())
    throw ModelFileError("'" + path + "' is a LibTorch archive but not an ataxx-zero model file");
  if (tag.toStringRef() != format)
    throw ModelFileError("'" + path + "' is an " + tag.toStringRef() + ", expected an " + format);
  const std::int64_t version = get_int(archive, "version", path);
  if (version != kFileVersion)
    throw ModelFileError("'" + path + "' has file version " + std::to_string(version) + "; this build reads version " +
                         std::to_string(kFileVersion));
  return archive;
}

void write_rules(torch::serialize::OutputArchive& archive, const RuleSettings& rules) {
  put(archive, "halfmove_limit", static_cast<std::int64_t>(rules.halfmove_limit));
  put(archive, "repetition_limit", static_cast<std::int64_t>(rules.repetition_limit));
}

// Rules are required in play files; checkpoints written before they carried rules get the defaults.
RuleSettings read_rules(torch::serialize::InputArchive& archive, const std::string& path, bool required) {
  RuleSettings rules;
  c10::IValue value;
  if (!required && !archive.try_read("halfmove_limit", value)) return rules;
  rules.halfmove_limit = get_int_in(archive, "halfmove_limit", path, 0, 10000);
  rules.repetition_limit = get_int_in(archive, "repetition_limit", path, 0, 100);
  return rules;
}

// What the network reads: its game, and Ataxx's boards.
struct Inputs {
  std::string game;
  BoardSet boards;
};

void write_encoding(torch::serialize::OutputArchive& archive, const std::string& game, const BoardSet& boards) {
  put(archive, "encoding_version", static_cast<std::int64_t>(kEncodingVersion));
  put(archive, "game", game);
  put(archive, "boards", boards.names());
}

// Files of encoding 1 (7x7 only, before the board family) carry no "boards" and, as checkpoints,
// no encoding version: their networks have another shape. Files without a game are Ataxx's.
Inputs read_encoding(torch::serialize::InputArchive& archive, const std::string& path) {
  c10::IValue value;
  const std::int64_t version = archive.try_read("encoding_version", value) && value.isInt() ? value.toInt() : 1;
  if (version != kEncodingVersion)
    throw ModelFileError("'" + path + "' uses input encoding " + std::to_string(version) + "; this build encodes version " +
                         std::to_string(kEncodingVersion) + " (a network of encoding 1 needs an older build)");
  Inputs inputs{std::string(kAtaxxName), {}};
  if (archive.try_read("game", value)) inputs.game = get_string(archive, "game", path);
  try {
    network_io(inputs.game, {});  // a game this build plays
    inputs.boards = BoardSet::parse(get_string(archive, "boards", path));
  } catch (const std::invalid_argument& e) {
    throw ModelFileError("'" + path + "': " + e.what());
  }
  return inputs;
}

void write_shape(torch::serialize::OutputArchive& archive, const ModelShape& shape) {
  put(archive, "blocks", static_cast<std::int64_t>(shape.blocks));
  put(archive, "channels", static_cast<std::int64_t>(shape.channels));
}

// The shape, which the file's size must be able to hold before a network of it is made: the
// residual blocks' 3x3 convolutions alone are 2 x 9 x channels^2 float32 weights a block (a
// small file that claims 64 x 1024 made 5 GB of weights before any was read).
ModelShape read_shape(torch::serialize::InputArchive& archive, const std::string& path) {
  const ModelShape shape{get_int_in(archive, "blocks", path, 1, kLargestShape.blocks),
                         get_int_in(archive, "channels", path, 1, kLargestShape.channels)};
  const std::uintmax_t least = std::uintmax_t{72} * shape.blocks * shape.channels * shape.channels;
  const std::uintmax_t size = std::filesystem::file_size(path);
  if (size < least)
    throw ModelFileError("model file '" + path + "' claims a " + std::to_string(shape.blocks) + "x" +
                         std::to_string(shape.channels) + " network, whose weights need at least " +
                         std::to_string(least) + " bytes; the file has " + std::to_string(size));
  return shape;
}

void load_weights(torch::serialize::InputArchive& archive, AtaxxNet& net, const std::string& path) {
  torch::serialize::InputArchive weights;
  try {
    if (!archive.try_read("model", weights)) throw ModelFileError("model file '" + path + "' has no weights");
    net->load(weights);
  } catch (const c10::Error& e) {
    const std::string what = e.what_without_backtrace();
    throw ModelFileError("model file '" + path + "': the weights do not fit the network (" + what.substr(0, what.find('\n')) + ")");
  }
}

// What play files and checkpoints both begin with: their format, the file version, what the network
// reads and is, the rules it was trained under and its training step.
void write_header(torch::serialize::OutputArchive& archive, std::string_view format, const std::string& game,
                  const BoardSet& boards, const ModelShape& shape, const RuleSettings& rules, std::int64_t step) {
  put(archive, "format", std::string(format));
  put(archive, "version", kFileVersion);
  write_encoding(archive, game, boards);
  write_shape(archive, shape);
  write_rules(archive, rules);
  put(archive, "step", step);
}

}  // namespace

void write_model_archive(torch::serialize::OutputArchive& archive, const std::string& path) {
  std::ostringstream buffer;
  archive.save_to(buffer);
  const std::string payload = buffer.str();
  std::string file(kContainerMagic, sizeof kContainerMagic);
  const std::uint64_t size = payload.size();
  const std::uint32_t crc = crc32_of(payload);
  file.append(reinterpret_cast<const char*>(&size), sizeof size);
  file.append(reinterpret_cast<const char*>(&crc), sizeof crc);
  file += payload;
  write_file_atomically(path, file);
}

void save_play_file(const std::string& path, AtaxxNet& net, const ModelInfo& info) {
  torch::serialize::OutputArchive archive;
  write_header(archive, kPlayFormat, info.game, info.boards, net->shape(), info.rules, info.step);
  put(archive, "name", info.name);
  put(archive, "parent", info.parent);
  torch::serialize::OutputArchive weights;
  net->save(weights);
  archive.write("model", weights);
  write_model_archive(archive, path);
}

void save_checkpoint(const std::string& path, AtaxxNet& net, torch::optim::Optimizer& optimizer,
                     const CheckpointInfo& info, AuxiliaryHead soft_policy) {
  torch::serialize::OutputArchive archive;
  write_header(archive, kCheckpointFormat, info.game, info.boards, net->shape(), info.rules, info.step);
  put(archive, "optimizer_kind", info.optimizer);
  put(archive, "config", info.config_yaml);
  torch::serialize::OutputArchive weights, optimizer_state;
  net->save(weights);
  optimizer.save(optimizer_state);
  archive.write("model", weights);
  archive.write("optimizer", optimizer_state);
  if (soft_policy.module) {
    torch::serialize::OutputArchive head, head_weights, head_optimizer;
    soft_policy.module->save(head_weights);
    soft_policy.optimizer->save(head_optimizer);
    head.write("model", head_weights);
    head.write("optimizer", head_optimizer);
    archive.write(kSoftPolicyKey, head);
  }
  write_model_archive(archive, path);
}

namespace {

AtaxxNet read_play_file(const std::string& path, ModelInfo* info_out) {
  auto archive = open_archive(path, kPlayFormat);
  ModelInfo info;
  auto [game, boards] = read_encoding(archive, path);
  info.game = std::move(game);
  info.boards = std::move(boards);
  info.encoding_version = kEncodingVersion;
  info.shape = read_shape(archive, path);
  info.rules = read_rules(archive, path, true);
  info.step = get_int(archive, "step", path);
  info.name = get_string(archive, "name", path);
  info.parent = get_string(archive, "parent", path);
  AtaxxNet net(info.shape, info.io());
  load_weights(archive, net, path);
  net->eval();
  if (info_out) *info_out = info;
  return net;
}

CheckpointInfo read_checkpoint_header(torch::serialize::InputArchive& archive, const std::string& path) {
  CheckpointInfo info;
  auto [game, boards] = read_encoding(archive, path);
  info.game = std::move(game);
  info.boards = std::move(boards);
  info.shape = read_shape(archive, path);
  info.rules = read_rules(archive, path, false);
  info.step = get_int(archive, "step", path);
  info.optimizer = get_string(archive, "optimizer_kind", path);
  info.config_yaml = get_string(archive, "config", path);
  return info;
}

CheckpointInfo read_checkpoint_fields(const std::string& path) {
  auto archive = open_archive(path, kCheckpointFormat);
  return read_checkpoint_header(archive, path);
}

void load_optimizer(torch::serialize::InputArchive& archive, torch::optim::Optimizer& optimizer, const std::string& path) {
  torch::serialize::InputArchive optimizer_state;
  try {
    if (!archive.try_read("optimizer", optimizer_state)) throw ModelFileError("checkpoint '" + path + "' has no optimizer state");
    optimizer.load(optimizer_state);
  } catch (const c10::Error& e) {
    throw ModelFileError("checkpoint '" + path + "': the optimizer state does not fit (" +
                         std::string(e.what_without_backtrace()).substr(0, 200) + ")");
  }
}

bool read_checkpoint_state(const std::string& path, AtaxxNet& net, torch::optim::Optimizer& optimizer,
                           torch::Device device, AuxiliaryHead soft_policy) {
  auto archive = open_archive(path, kCheckpointFormat, device);
  load_weights(archive, net, path);
  load_optimizer(archive, optimizer, path);
  torch::serialize::InputArchive head;
  if (!archive.try_read(kSoftPolicyKey, head)) return false;
  if (!soft_policy.module) return true;
  torch::serialize::InputArchive head_weights;
  try {
    if (!head.try_read("model", head_weights)) throw ModelFileError("checkpoint '" + path + "': its soft policy head has no weights");
    soft_policy.module->load(head_weights);
  } catch (const c10::Error& e) {
    const std::string what = e.what_without_backtrace();
    throw ModelFileError("checkpoint '" + path + "': the soft policy head does not fit (" + what.substr(0, what.find('\n')) + ")");
  }
  load_optimizer(head, *soft_policy.optimizer, path);
  return true;
}

void export_checkpoint(const std::string& checkpoint_path, const std::string& play_path, const std::string& name) {
  auto archive = open_archive(checkpoint_path, kCheckpointFormat);
  const CheckpointInfo checkpoint = read_checkpoint_header(archive, checkpoint_path);
  AtaxxNet net(checkpoint.shape, network_io(checkpoint.game, checkpoint.boards));
  load_weights(archive, net, checkpoint_path);
  save_play_file(play_path, net,
                 {.game = checkpoint.game,
                  .shape = checkpoint.shape, .boards = checkpoint.boards, .rules = checkpoint.rules,
                  .step = checkpoint.step, .name = name, .parent = checkpoint_path});
}

}  // namespace

AtaxxNet load_play_file(const std::string& path, ModelInfo* info_out) {
  return guarded(path, [&] { return read_play_file(path, info_out); });
}

CheckpointInfo read_checkpoint_info(const std::string& path) {
  return guarded(path, [&] { return read_checkpoint_fields(path); });
}

bool load_checkpoint(const std::string& path, AtaxxNet& net, torch::optim::Optimizer& optimizer, torch::Device device,
                     AuxiliaryHead soft_policy) {
  return guarded(path, [&] { return read_checkpoint_state(path, net, optimizer, device, soft_policy); });
}

void export_play_file(const std::string& checkpoint_path, const std::string& play_path, const std::string& name) {
  guarded(checkpoint_path, [&] { export_checkpoint(checkpoint_path, play_path, name); });
}

}  // namespace ataxx
