// A play file's network on the CPU in plain C++ (nn/cpu_network.h), read without LibTorch
// (nn/play_file.h): the whole of nn/eigen_backend.cpp, and the LibTorch backend's CPU path where it
// is the faster.
#pragma once

#include <memory>
#include <string>

#include "nn/cpu_network.h"
#include "nn/network_backend.h"

namespace ataxx {

// Positions a forward pass takes at once (their activations stay in cache). Up to this batch the
// Eigen path with im2col was the faster on the CPU, above it LibTorch's (`bench nn`, 4x32 before
// the direct convolution, one thread: batch 1 7,471 vs 1,207 evals/s, 8 9,609 vs 7,280, 16 even,
// 128 6,968 vs 11,341); a net whose convolutions are all direct is the faster at any batch.
inline constexpr int kEigenMaxBatch = 16;

// Throws std::invalid_argument for options the CPU cannot run: bf16 or int8 on a processor without
// them (DirectConvolution::available), CUDA graphs.
void check_cpu_options(const InferenceOptions& options);

class EigenNetwork final : public LoadedNetwork {
 public:
  // Throws ModelFileError for a bad play file; options as check_cpu_options (the device is the
  // caller's to check).
  static std::unique_ptr<EigenNetwork> load(const std::string& play_file, const InferenceOptions& options,
                                            NetworkIoOf io_of = registered_network_io);

  BatchDevice::Output forward(int thread, const float* inputs, int n) override;
  void ownership(const float* inputs, int n, float* out) override { network_.ownership(inputs, n, out); }
  // Every 3x3 convolution direct: then faster than LibTorch's at any batch.
  bool convolves_directly() const { return network_.convolves_directly(); }

 private:
  EigenNetwork(const ModelInfo& info, const FoldedParameters& parameters, Precision precision)
      : LoadedNetwork(info), network_(info.shape, info.io, parameters, precision) {}
  CpuNetwork network_;
};

}  // namespace ataxx
