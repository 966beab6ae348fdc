#include "nn/model_file.h"

#include <mutex>
#include <sstream>
#include <string_view>
#include <utility>

#include "nn/model_container.h"
#include "nn/play_file.h"
#include "util/atomic_file.h"

namespace ataxx {
namespace {

constexpr const char* kSoftPolicyKey = "soft_policy";  // a checkpoint's optional AuxiliaryHead

void put(torch::serialize::OutputArchive& archive, const std::string& key, const c10::IValue& value) {
  archive.write(key, value);
}

// The archive's top-level fields, for the checks of nn/model_container.h.
class ArchiveFields final : public ModelFields {
 public:
  explicit ArchiveFields(torch::serialize::InputArchive& archive) : archive_(archive) {}
  Type type(const std::string& key) const override {
    c10::IValue value;
    if (!archive_.try_read(key, value)) return Type::kMissing;
    return value.isInt() ? Type::kInteger : value.isString() ? Type::kText : Type::kOther;
  }
  std::int64_t integer(const std::string& key) const override { return read(key).toInt(); }
  std::string text(const std::string& key) const override { return read(key).toStringRef(); }

 private:
  c10::IValue read(const std::string& key) const {
    c10::IValue value;
    archive_.try_read(key, value);
    return value;
  }
  torch::serialize::InputArchive& archive_;  // try_read is not const
};

// Runs `read`, turning whatever LibTorch throws on a damaged archive into a ModelFileError.
template <typename Read>
auto guarded(const std::string& path, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const ModelFileError&) {
    throw;
  } catch (const c10::Error& e) {
    const std::string what = e.what_without_backtrace();
    throw DamagedModelFileError("model file '" + path + "' is damaged (" + what.substr(0, what.find('\n')) + ")");
  } catch (const std::exception& e) {
    throw DamagedModelFileError("model file '" + path + "' is damaged (" + std::string(e.what()) + ")");
  }
}

// Opens an archive and checks its format tag and version.
// Every tensor of the archive lands on `device` (by default where it was saved).
torch::serialize::InputArchive open_archive(const std::string& path, std::string_view format,
                                            c10::optional<torch::Device> device = c10::nullopt) {
  // LibTorch 1.13's import keeps state of its own unguarded (the operator version map it sorts on
  // first use, ...): a training run's threads load models at once (gating, ladder, self-play).
  static std::mutex import_mutex;
  torch::serialize::InputArchive archive;
  const std::string file = read_model_file(path);
  std::istringstream stream(std::string(model_archive(file, path)));
  try {
    const std::lock_guard lock(import_mutex);
    archive.load_from(stream, device);
  } catch (const c10::Error& e) {
    const std::string what = e.what_without_backtrace();
    throw DamagedModelFileError("cannot read model file '" + path + "': not an ataxx-zero model file, or truncated (" +
                                what.substr(0, what.find('\n')) + ")");
  }
  check_format(ArchiveFields(archive), format, path);
  return archive;
}

void write_rules(torch::serialize::OutputArchive& archive, const RuleSettings& rules) {
  put(archive, "halfmove_limit", static_cast<std::int64_t>(rules.halfmove_limit));
  put(archive, "repetition_limit", static_cast<std::int64_t>(rules.repetition_limit));
}

void write_encoding(torch::serialize::OutputArchive& archive, const std::string& game, const BoardSet& boards) {
  put(archive, "encoding_version", static_cast<std::int64_t>(kEncodingVersion));
  put(archive, "game", game);
  put(archive, "boards", boards.names());
}

void write_shape(torch::serialize::OutputArchive& archive, const ModelShape& shape) {
  put(archive, "blocks", static_cast<std::int64_t>(shape.blocks));
  put(archive, "channels", static_cast<std::int64_t>(shape.channels));
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
  put(archive, "version", kModelFileVersion);
  write_encoding(archive, game, boards);
  write_shape(archive, shape);
  write_rules(archive, rules);
  put(archive, "step", step);
}

}  // namespace

void write_model_archive(torch::serialize::OutputArchive& archive, const std::string& path) {
  std::ostringstream buffer;
  archive.save_to(buffer);
  write_file_atomically(path, in_model_container(buffer.str()));
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

// A tensor of the network filled from the file's, whose shape it must have.
void fill(torch::Tensor target, const std::string& name, const PlayFileTensors& file, const std::string& path) {
  const auto missing = [&] {
    return DamagedModelFileError("model file '" + path + "' is damaged (it has no " + name + ")");
  };
  const auto misfit = [&] { return ModelFileError("model file '" + path + "': " + name + " does not fit the network"); };
  if (target.scalar_type() == torch::kLong) {  // a norm's count of batches
    const auto found = file.counts.find(name);
    if (found == file.counts.end()) throw missing();
    if (static_cast<std::int64_t>(found->second.size()) != target.numel()) throw misfit();
    target.copy_(torch::from_blob(const_cast<std::int64_t*>(found->second.data()), target.sizes(), torch::kLong));
    return;
  }
  const auto found = file.tensors.find(name);
  if (found == file.tensors.end()) throw missing();
  const HostTensor& source = found->second;
  if (target.sizes().vec() != source.shape) throw misfit();
  target.copy_(torch::from_blob(const_cast<float*>(source.values.data()), target.sizes(), torch::kFloat));
}

// Read by nn/play_file.h's reader, which bounds every field, view and storage: a play file is what a
// user is handed, and LibTorch's own unpickler trusts the file it reads.
AtaxxNet read_play_file(const std::string& path, ModelInfo* info_out, NetworkIoOf io_of) {
  const PlayFileTensors file = read_play_file_tensors(path, io_of);
  AtaxxNet net(file.info.shape, file.info.io);
  {
    const torch::NoGradGuard no_grad;
    for (const auto& parameter : net->named_parameters()) fill(parameter.value(), parameter.key(), file, path);
    for (const auto& buffer : net->named_buffers()) fill(buffer.value(), buffer.key(), file, path);
  }
  net->eval();
  if (info_out) *info_out = file.info;
  return net;
}

CheckpointInfo read_checkpoint_fields(const std::string& path, NetworkIoOf io_of) {
  auto archive = open_archive(path, kCheckpointFormat);
  return read_checkpoint_header(ArchiveFields(archive), path, io_of);
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

// A checkpoint's weights and what its play file says of them.
std::pair<AtaxxNet, ModelInfo> read_for_export(const std::string& checkpoint_path, const std::string& name) {
  auto archive = open_archive(checkpoint_path, kCheckpointFormat);
  const CheckpointInfo checkpoint = read_checkpoint_header(ArchiveFields(archive), checkpoint_path, registered_network_io);
  AtaxxNet net(checkpoint.shape, checkpoint.io);
  load_weights(archive, net, checkpoint_path);
  return {net,
          {.game = checkpoint.game,
           .shape = checkpoint.shape,
           .boards = checkpoint.boards,
           .rules = checkpoint.rules,
           .step = checkpoint.step,
           .name = name,
           .parent = checkpoint_path}};
}

}  // namespace

AtaxxNet load_play_file(const std::string& path, ModelInfo* info_out, NetworkIoOf io_of) {
  return guarded(path, [&] { return read_play_file(path, info_out, io_of); });
}

CheckpointInfo read_checkpoint_info(const std::string& path, NetworkIoOf io_of) {
  return guarded(path, [&] { return read_checkpoint_fields(path, io_of); });
}

bool load_checkpoint(const std::string& path, AtaxxNet& net, torch::optim::Optimizer& optimizer, torch::Device device,
                     AuxiliaryHead soft_policy) {
  return guarded(path, [&] { return read_checkpoint_state(path, net, optimizer, device, soft_policy); });
}

void write_random_play_file(const std::string& path, const ModelShape& shape, std::uint64_t seed,
                            const BoardSet& boards, const RuleSettings& rules, std::string_view game) {
  torch::manual_seed(seed);
  AtaxxNet net(shape, network_io(game, boards));
  ModelInfo info;
  info.game = game;
  info.shape = shape;
  info.boards = boards;
  info.rules = rules;
  info.name = "random-init";
  save_play_file(path, net, info);
}

void export_play_file(const std::string& checkpoint_path, const std::string& play_path, const std::string& name) {
  // Only the reading is the checkpoint's: an error writing names the play file.
  auto [net, info] = guarded(checkpoint_path, [&] { return read_for_export(checkpoint_path, name); });
  save_play_file(play_path, net, info);
}

}  // namespace ataxx
