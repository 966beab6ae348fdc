// The seam between the inference server and what runs a network. Each program links one backend,
// which defines load_network: nn/torch_backend.cpp (LibTorch, on the CPU or a CUDA device: the
// ataxx-zero program) or nn/eigen_backend.cpp (the CPU alone, without LibTorch: ataxx-engine), as
// each KataGo build links one of its backends. Plain C++.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "nn/batched_evaluator.h"
#include "nn/inference_options.h"
#include "nn/model_info.h"

namespace ataxx {

// A play file's network, loaded to run batches of encoded positions.
class LoadedNetwork {
 public:
  explicit LoadedNetwork(ModelInfo info) : info_(std::move(info)) {}
  virtual ~LoadedNetwork() = default;
  // The outputs of n positions, on server thread (or caller lane) `thread`, one call at a time per
  // thread; the result's generation is the caller's to fill.
  virtual BatchDevice::Output forward(int thread, const float* inputs, int n) = 0;
  // The ownership head's: n rows of io().area(), each canvas cell's final owner from the side to
  // move's view, in [-1, 1]. From any thread, outside the batches (the analysis of a position).
  virtual void ownership(const float* inputs, int n, float* out) = 0;
  const ModelInfo& info() const { return info_; }
  const NetworkIo& io() const { return info_.io; }

 private:
  ModelInfo info_;
};

// Throws ModelFileError for a bad play file or one of a game io_of does not play,
// std::invalid_argument for options this backend cannot run (a CUDA device without LibTorch, a
// precision the processor lacks).
std::unique_ptr<LoadedNetwork> load_network(const std::string& play_file, const InferenceOptions& options,
                                            NetworkIoOf io_of = registered_network_io);

// Throws std::invalid_argument for a device name this backend cannot run: not cpu, cuda or cuda:N,
// or CUDA where this program or machine has none.
void check_device(const std::string& device);
// Both backends' words for a name that is none of those.
inline std::string unknown_device(const std::string& device) {
  return "unknown device '" + device + "' (expected cpu, cuda or cuda:N)";
}

}  // namespace ataxx
