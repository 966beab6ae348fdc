// Play files read without LibTorch: everything the CPU's forward pass (nn/cpu_network.h) needs, the
// header and the weights with their batch norms folded, from the archive's pickle and its stored
// tensors (nn/torch_pickle.h, nn/stored_zip.h). The same checks and errors as LibTorch's reader
// (nn/model_file.h) for what both read. Plain C++.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nn/model_info.h"

namespace ataxx {

// A tensor copied to the host, row-major in its shape.
struct HostTensor {
  std::vector<std::int64_t> shape;
  std::vector<float> values;
};
// Parameters by AtaxxNet's names ("tower.0.conv1.weight"), each convolution's batch norm folded
// into its weight and a bias (AtaxxNet::fold_batch_norms).
using FoldedParameters = std::map<std::string, HostTensor>;

struct PlayFileWeights {
  ModelInfo info;
  FoldedParameters parameters;
};

// Every tensor of a play file by AtaxxNet's names, as it was saved (norms unfolded): what
// LibTorch's networks are loaded from (nn/model_file.h), so that no play file, teacher or start net
// a user is handed reaches LibTorch's own unpickler.
struct PlayFileTensors {
  ModelInfo info;
  std::map<std::string, HostTensor> tensors;
  std::map<std::string, std::vector<std::int64_t>> counts;  // int64 tensors: the norms' batches tracked
};

// Each throws ModelFileError naming `path`, for a network of a game io_of does not play too.
PlayFileWeights read_play_file_weights(const std::string& path, NetworkIoOf io_of = registered_network_io);
PlayFileTensors read_play_file_tensors(const std::string& path, NetworkIoOf io_of = registered_network_io);
ModelInfo read_model_info(const std::string& path, NetworkIoOf io_of = registered_network_io);

}  // namespace ataxx
