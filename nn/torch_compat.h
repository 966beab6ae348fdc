// The few places where Debian's LibTorch 1.13 (CPU) and a pip PyTorch 2.x LibTorch (CUDA) differ,
// and the device names both accept.
#pragma once

#include <torch/torch.h>

#include <stdexcept>
#include <string>

namespace ataxx::torch_compat {

// One intra-op and one inter-op thread for the calling thread's work; parallelism comes from
// running several inference threads rather than one wide one.
inline void use_one_intra_op_thread() {
  torch::set_num_threads(1);
  static std::once_flag interop;
  std::call_once(interop, [] {
    try {
      torch::set_num_interop_threads(1);
    } catch (const c10::Error&) {
      // Already started by an earlier parallel call: harmless.
    }
  });
}

// "cpu", "cuda" or "cuda:N"; throws std::invalid_argument for another name, or CUDA where this
// build or machine has none.
inline torch::Device parse_device(const std::string& name) {
  try {
    torch::Device device(name);
    if (device.is_cuda() && !torch::cuda::is_available())
      throw std::invalid_argument("device '" + name + "' asked for, but CUDA is not available in this build or machine");
    return device;
  } catch (const c10::Error&) {
    throw std::invalid_argument("unknown device '" + name + "' (expected cpu, cuda or cuda:N)");
  }
}

inline void synchronize(const torch::Device& device) {
  if (device.is_cuda()) torch::cuda::synchronize(device.index() < 0 ? -1 : device.index());
}

}  // namespace ataxx::torch_compat
