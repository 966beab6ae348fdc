// How an inference server runs a network: device, precision, batching, threads, cache. A plain
// struct, so that configs and player specs can hold one without linking the network.
#pragma once

#include <compare>
#include <string>

#include "util/parallel.h"

namespace ataxx {

// How the network runs on the CPU: the Eigen forward pass (nn/cpu_network.h) for small batches
// and LibTorch's for large ones (each where it is the faster), or LibTorch's for all.
enum class CpuPath { kEigen, kTorch };

// The number format of the convolutions: int8 and bf16 as InferenceOptions asks (int8 before bf16).
enum class Precision { kFloat, kBf16, kInt8 };

struct InferenceOptions {
  std::string device = "cpu";  // "cpu", "cuda" or "cuda:N"
  bool bf16 = false;           // CUDA; on the CPU the Eigen path's direct convolutions, with AVX512-BF16
  bool int8 = false;           // the CPU's direct convolutions in 8-bit integers, with AVX2 or AVX512-VNNI (before bf16)
  bool cuda_graphs = false;    // CUDA only, in a build with ATAXX_CUDA_GRAPHS (nn/graphed_forward.h)
  int max_batch = 256;
  int deadline_us = 1000;
  // Server threads, each with one intra-op thread on the CPU. 0 (CPU only): none, each caller runs
  // its own batches on its own thread: no hand-off between threads.
  int threads = 1;
  // With threads 0: callers that may run their batches at once (search threads, a match's games):
  // one per core.
  int caller_lanes = usable_cores();
  int cache_entries = 0;       // 0 = no cache
  bool random_symmetry = false;  // each position evaluated under a random symmetry of its board
  CpuPath cpu_path = CpuPath::kEigen;

  auto operator<=>(const InferenceOptions&) const = default;
};

inline Precision precision_of(const InferenceOptions& options) {
  return options.int8 ? Precision::kInt8 : options.bf16 ? Precision::kBf16 : Precision::kFloat;
}

inline const char* to_string(Precision precision) {
  switch (precision) {
    case Precision::kInt8: return "int8";
    case Precision::kBf16: return "bf16";
    case Precision::kFloat: break;
  }
  return "float32";
}

}  // namespace ataxx
