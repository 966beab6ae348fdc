#include "nn/play_file.h"

#include <cmath>
#include <functional>
#include <memory>
#include <utility>

#include "nn/model_container.h"
#include "nn/stored_zip.h"
#include "nn/torch_pickle.h"

namespace ataxx {
namespace {

using Kind = PickleValue::Kind;

// BatchNorm2d's default, which AtaxxNet's norms keep.
constexpr float kNormEpsilon = 1e-5f;

// The top-level fields of the archive's pickle (its root object's attributes).
class PickleFields final : public ModelFields {
 public:
  explicit PickleFields(const PickleValue& root) : root_(root) {}
  Type type(const std::string& key) const override {
    const PickleValue* value = root_.field(key);
    if (!value) return Type::kMissing;
    return value->kind == Kind::kInt ? Type::kInteger : value->kind == Kind::kString ? Type::kText : Type::kOther;
  }
  std::int64_t integer(const std::string& key) const override { return root_.field(key)->integer; }
  std::string text(const std::string& key) const override { return root_.field(key)->text; }

 private:
  const PickleValue& root_;
};

// A play file's archive, opened and its header checked.
class PlayArchive {
 public:
  PlayArchive(const std::string& path, NetworkIoOf io_of)
      : path_(path), file_(read_model_file(path)), zip_(model_archive(file_, path)), folder_(archive_folder()) {
    root_ = unpickle(zip_.stored(folder_ + "data.pkl"));
    check_format(PickleFields(*root_), kPlayFormat, path);
    info_ = read_play_header(PickleFields(*root_), path, io_of);
    if (zip_.contains(folder_ + "byteorder") && zip_.stored(folder_ + "byteorder") != "little")
      throw ModelFileError("model file '" + path + "' was written on a big-endian machine");
  }
  const ModelInfo& info() const { return info_; }

  // The network's tensors by AtaxxNet's names.
  std::map<std::string, const PickledTensor*> tensors() const {
    const PickleValue* model = root_->field("model");
    if (!model || model->kind != Kind::kObject) throw ModelFileError("model file '" + path_ + "' has no weights");
    std::map<std::string, const PickledTensor*> tensors;
    collect(*model, "", tensors);
    return tensors;
  }

  // A float32 tensor's values, row-major.
  HostTensor values(const std::string& name, const PickledTensor& tensor) const {
    try {
      return {tensor.sizes, float_values(tensor, zip_.stored(folder_ + "data/" + tensor.storage_key))};
    } catch (const PickleError& e) {
      throw damaged(name + ": " + e.what());
    }
  }

  // An int64 tensor's values, row-major.
  std::vector<std::int64_t> counts(const std::string& name, const PickledTensor& tensor) const {
    try {
      return integer_values(tensor, zip_.stored(folder_ + "data/" + tensor.storage_key));
    } catch (const PickleError& e) {
      throw damaged(name + ": " + e.what());
    }
  }

  ModelFileError damaged(const std::string& what) const {
    return ModelFileError("model file '" + path_ + "' is damaged (" + what + ")");
  }

 private:
  // The folder the archive's entries are in (LibTorch names it "archive").
  std::string archive_folder() const {
    for (const std::string& name : zip_.names()) {
      const std::size_t slash = name.find('/');
      if (slash != std::string::npos && name.substr(slash + 1) == "data.pkl") return name.substr(0, slash + 1);
    }
    throw ModelFileError("model file '" + path_ + "' is damaged (its archive has no data.pkl)");
  }

  static void collect(const PickleValue& module, const std::string& prefix,
                      std::map<std::string, const PickledTensor*>& tensors) {
    if (module.items.empty() || module.items.front()->kind != Kind::kDict) return;
    const auto& state = module.items.front()->items;
    for (std::size_t i = 0; i + 1 < state.size(); i += 2) {
      if (state[i]->kind != Kind::kString) continue;
      const PickleValue& value = *state[i + 1];
      if (value.kind == Kind::kTensor) tensors[prefix + state[i]->text] = &value.tensor;
      if (value.kind == Kind::kObject) collect(value, prefix + state[i]->text + ".", tensors);
    }
  }

  std::string path_;
  std::string file_;
  StoredZip zip_;
  std::string folder_;
  std::shared_ptr<PickleValue> root_;
  ModelInfo info_;
};

// The parameters CpuNetwork reads from a play file's tensors, each convolution's norm folded in.
class Folder {
 public:
  explicit Folder(const PlayArchive& archive) : archive_(archive), tensors_(archive.tensors()) {}

  HostTensor tensor(const std::string& name) const {
    const auto it = tensors_.find(name);
    if (it == tensors_.end()) throw archive_.damaged("it has no " + name);
    return archive_.values(name, *it->second);
  }
  void copy(const std::string& layer, FoldedParameters& parameters) const {
    parameters[layer + ".weight"] = tensor(layer + ".weight");
    parameters[layer + ".bias"] = tensor(layer + ".bias");
  }
  // AtaxxNet::fold_batch_norms, for one convolution and its norm.
  void fold(const std::string& conv, const std::string& norm, FoldedParameters& parameters) const {
    HostTensor weight = tensor(conv + ".weight");
    const HostTensor gamma = tensor(norm + ".weight"), beta = tensor(norm + ".bias"),
                     mean = tensor(norm + ".running_mean"), variance = tensor(norm + ".running_var");
    const std::size_t outputs = weight.shape.empty() ? 0 : static_cast<std::size_t>(weight.shape[0]);
    for (const HostTensor* t : {&gamma, &beta, &mean, &variance})
      if (t->values.size() != outputs || outputs == 0) throw archive_.damaged(norm + " does not fit " + conv);
    const std::size_t per_output = weight.values.size() / outputs;
    HostTensor bias{{static_cast<std::int64_t>(outputs)}, std::vector<float>(outputs)};
    for (std::size_t o = 0; o < outputs; ++o) {
      const float scale = gamma.values[o] / std::sqrt(variance.values[o] + kNormEpsilon);
      for (std::size_t i = 0; i < per_output; ++i) weight.values[o * per_output + i] *= scale;
      bias.values[o] = beta.values[o] - mean.values[o] * scale;
    }
    parameters[conv + ".weight"] = std::move(weight);
    parameters[conv + ".bias"] = std::move(bias);
  }

 private:
  const PlayArchive& archive_;
  std::map<std::string, const PickledTensor*> tensors_;
};

FoldedParameters folded_parameters(const PlayArchive& archive) {
  const Folder folder(archive);
  FoldedParameters parameters;
  folder.fold("input_conv", "input_bn", parameters);
  for (int b = 0; b < archive.info().shape.blocks; ++b) {
    const std::string block = "tower." + std::to_string(b) + ".";
    folder.fold(block + "conv1", block + "bn1", parameters);
    folder.fold(block + "conv2", block + "bn2", parameters);
  }
  folder.fold("policy_conv", "policy_bn", parameters);
  folder.fold("value_conv", "value_bn", parameters);
  for (const char* layer : {"policy_out", "pass_out", "value_hidden", "wdl_out", "piece_diff_out", "ownership_out"})
    folder.copy(layer, parameters);
  return parameters;
}

// Runs `read`, naming the file in what the zip and pickle readers throw.
template <typename Read>
auto guarded(const std::string& path, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const ZipError& e) {
    throw ModelFileError("model file '" + path + "' is damaged (" + e.what() + ")");
  } catch (const PickleError& e) {
    throw ModelFileError("model file '" + path + "' is damaged (" + e.what() + ")");
  }
}

}  // namespace

PlayFileWeights read_play_file_weights(const std::string& path, NetworkIoOf io_of) {
  return guarded(path, [&] {
    const PlayArchive archive(path, io_of);
    return PlayFileWeights{archive.info(), folded_parameters(archive)};
  });
}

PlayFileTensors read_play_file_tensors(const std::string& path, NetworkIoOf io_of) {
  return guarded(path, [&] {
    const PlayArchive archive(path, io_of);
    PlayFileTensors file{archive.info(), {}, {}};
    for (const auto& [name, tensor] : archive.tensors()) {
      if (tensor->storage_type == "LongStorage")
        file.counts[name] = archive.counts(name, *tensor);
      else
        file.tensors[name] = archive.values(name, *tensor);
    }
    return file;
  });
}

ModelInfo read_model_info(const std::string& path, NetworkIoOf io_of) {
  return guarded(path, [&] { return PlayArchive(path, io_of).info(); });
}

}  // namespace ataxx
