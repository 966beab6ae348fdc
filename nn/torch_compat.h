// The few places where Debian's LibTorch 1.13 (CPU) and a pip PyTorch 2.x LibTorch (CUDA) differ,
// and the device names both accept.
#pragma once

#include <ATen/autocast_mode.h>
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "nn/network_backend.h"

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

// "cpu", "cuda" or "cuda:N"; throws std::invalid_argument for another name (LibTorch's others too:
// mps, meta, ...), or a CUDA device this build or machine does not have.
inline torch::Device parse_device(const std::string& name) {
  const std::string expected = unknown_device(name);
  try {
    torch::Device device(name);
    if (!device.is_cpu() && !device.is_cuda()) throw std::invalid_argument(expected);
    if (device.is_cuda() && !torch::cuda::is_available())
      throw std::invalid_argument("device '" + name + "' asked for, but CUDA is not available in this build or machine");
    if (device.is_cuda() && device.has_index() && device.index() >= static_cast<int>(torch::cuda::device_count()))
      throw std::invalid_argument("device '" + name + "' asked for, but this machine has " +
                                  std::to_string(torch::cuda::device_count()) + " CUDA devices");
    return device;
  } catch (const c10::Error&) {
    throw std::invalid_argument(expected);
  }
}

// A stream from the device's pool, none on the CPU. On a busy GPU the blocks of a high-priority
// stream's kernels are scheduled ahead of those of the others.
inline std::optional<c10::Stream> pool_stream(const torch::Device& device, bool high_priority = false) {
  if (!device.is_cuda()) return std::nullopt;
  return c10::impl::VirtualGuardImpl(device.type()).getStreamFromGlobalPool(device, high_priority);
}

// While it lives, `stream` is the calling thread's current stream on its device; without one, nothing.
class OnStream {
 public:
  explicit OnStream(const std::optional<c10::Stream>& stream) {
    if (stream) guard_.reset_stream(*stream);
  }

 private:
  c10::OptionalStreamGuard guard_;
};

// Held while a thread warms up and captures a CUDA graph (nn/graphed_forward.cpp), and by
// synchronize(): a device-wide synchronisation, or another thread's first cuBLAS or cuDNN call or
// autotuning, in the middle of a capture breaks it, whatever the capture mode.
inline std::mutex& capture_mutex() {
  static std::mutex mutex;
  return mutex;
}

// Holds capture_mutex() while it lives when `device` is a CUDA device: for work that may autotune,
// make its first cuBLAS/cuDNN calls or free device memory (the trainer's steps, its saves).
class NoCaptureMeanwhile {
 public:
  explicit NoCaptureMeanwhile(const torch::Device& device) : lock_(capture_mutex(), std::defer_lock) {
    if (device.is_cuda()) lock_.lock();
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

inline void synchronize(const torch::Device& device) {
  if (!device.is_cuda()) return;
  const std::lock_guard<std::mutex> no_capture_meanwhile(capture_mutex());
  torch::cuda::synchronize(device.index() < 0 ? -1 : device.index());
}

// While it lives, the calling thread's work on `device` runs under bfloat16 autocast (the weights
// stay float32). At its end the bfloat16 copies of the weights that autocast cached are dropped:
// the next optimiser step changes the weights.
class Bf16Autocast {
 public:
  Bf16Autocast(const torch::Device& device, bool enabled) : type_(device.type()), enabled_(enabled) {
    if (!enabled_) return;
    set(true);
    at::autocast::increment_nesting();
  }
  ~Bf16Autocast() {
    if (!enabled_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    set(false);
  }
  Bf16Autocast(const Bf16Autocast&) = delete;
  Bf16Autocast& operator=(const Bf16Autocast&) = delete;

 private:
  void set(bool on) const {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_dtype(type_, torch::kBFloat16);
    at::autocast::set_autocast_enabled(type_, on);
#else
    if (type_ == torch::kCUDA) {
      at::autocast::set_autocast_gpu_dtype(torch::kBFloat16);
      at::autocast::set_enabled(on);
    } else {
      at::autocast::set_autocast_cpu_dtype(torch::kBFloat16);
      at::autocast::set_cpu_enabled(on);
    }
#endif
  }

  torch::DeviceType type_;
  bool enabled_;
};

}  // namespace ataxx::torch_compat
