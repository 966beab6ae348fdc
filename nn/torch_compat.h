// The few places where Debian's LibTorch 1.13 (CPU) and a pip PyTorch 2.x LibTorch (CUDA) differ.
#pragma once

#include <torch/torch.h>

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

inline void synchronize(const torch::Device& device) {
  if (device.is_cuda()) torch::cuda::synchronize(device.index() < 0 ? -1 : device.index());
}

}  // namespace ataxx::torch_compat
