// The LibTorch backend (nn/network_backend.h): a network on a CUDA device, or on the CPU, where the
// plain C++ forward pass (nn/eigen_network.h) runs every batch it is the faster for.
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include <bit>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

#include "nn/eigen_network.h"
#include "nn/graphed_forward.h"
#include "nn/model_file.h"
#include "nn/torch_compat.h"

namespace ataxx {
namespace {

// The network's outputs for a batch, as one float32 tensor on the batch's device: the policy logits
// (rows x policy size), the win, draw, loss probabilities (rows x 3), then the piece leads (rows).
torch::Tensor flat_outputs(AtaxxNetImpl& net, const torch::Tensor& planes, torch::Device device,
                           torch::ScalarType dtype) {
  const NetworkOutput out = net.forward(to_inference_input(planes, device, dtype));
  return torch::cat({out.policy_logits.to(torch::kFloat32).reshape(-1),
                     torch::softmax(out.wdl_logits.to(torch::kFloat32), 1).reshape(-1),
                     out.piece_diff.to(torch::kFloat32).reshape(-1)});
}

// A batch on a GPU is padded up to one of a few sizes (every size up to 8, then four to each power
// of two), so that cuDNN autotunes, and CUDA graphs capture, a handful of shapes once rather than
// one per batch size met (unpadded, self-play's ever-changing batch sizes kept the H100
// autotuning: 24k evals/s against 686k raw). At most a fifth of a padded batch is padding.
int padded_batch(int n) {
  const int step = std::max(1, static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))) / 8);
  return (n + step - 1) / step * step;
}

// The batch in pinned host memory (from LibTorch's caching host allocator, so reused batch after
// batch), padded with zeros to `rows`, so that its copy to the device is asynchronous.
torch::Tensor staged_on_pinned_memory(const float* inputs, int n, int rows, const NetworkIo& io) {
  const std::int64_t per_position = io.input_size();
  auto pinned = torch::empty({rows, io.input_planes, io.canvas, io.canvas}, torch::TensorOptions().pinned_memory(true));
  float* data = pinned.data_ptr<float>();
  std::memcpy(data, inputs, sizeof(float) * n * per_position);
  std::memset(data + n * per_position, 0, sizeof(float) * (rows - n) * per_position);
  return pinned;
}

// The first n of `rows` positions' flat outputs, in host memory. From a GPU: three asynchronous
// copies into pinned memory and one wait for the calling thread's stream.
BatchDevice::Output host_outputs(const torch::Tensor& flat, int n, int rows, int policy_size) {
  const std::int64_t policy = std::int64_t{n} * policy_size, wdl = std::int64_t{n} * 3, lead = n;
  auto host = std::make_shared<torch::Tensor>(flat);
  const std::int64_t wdl_at = policy, lead_at = policy + wdl;  // in host
  if (flat.is_cuda()) {
    *host = torch::empty({policy + wdl + lead}, torch::TensorOptions().pinned_memory(true));
    const std::int64_t flat_wdl_at = std::int64_t{rows} * policy_size,
                       flat_lead_at = flat_wdl_at + std::int64_t{rows} * 3;
    host->narrow(0, 0, policy).copy_(flat.narrow(0, 0, policy), /*non_blocking=*/true);
    host->narrow(0, wdl_at, wdl).copy_(flat.narrow(0, flat_wdl_at, wdl), /*non_blocking=*/true);
    host->narrow(0, lead_at, lead).copy_(flat.narrow(0, flat_lead_at, lead), /*non_blocking=*/true);
    c10::impl::VirtualGuardImpl(flat.device().type()).getStream(flat.device()).synchronize();
  }
  const float* data = host->data_ptr<float>();
  return {.policy_logits = data, .wdl = data + wdl_at, .lead = data + lead_at, .owner = host};
}

void check_torch_options(const InferenceOptions& options) {
  const bool cuda = torch_compat::parse_device(options.device).is_cuda();
  if (!cuda) return check_cpu_options(options);
  if (options.int8) throw std::invalid_argument("inference: int8 needs the CPU, with AVX2 or AVX512-VNNI");
  if (options.threads == 0)
    throw std::invalid_argument("inference: threads 0 (the callers run their batches) is for the CPU");
}

// A play file's network in LibTorch, on the CPU (with the plain C++ path for small batches) or a
// CUDA device.
class TorchNetwork final : public LoadedNetwork {
 public:
  TorchNetwork(const std::string& play_file, const InferenceOptions& options, std::unique_ptr<EigenNetwork> cpu,
               NetworkIoOf io_of)
      : TorchNetwork(options, std::move(cpu), load_with_info(play_file, io_of)) {}

  BatchDevice::Output forward(int thread, const float* inputs, int n) override {
    if (cpu_ && n <= kEigenMaxBatch) return cpu_->forward(thread, inputs, n);
    static thread_local bool configured = [] {
      torch_compat::use_one_intra_op_thread();
      return true;
    }();
    (void)configured;
    c10::InferenceMode inference_mode;
    const NetworkIo& io = this->io();
    if (!device_.is_cuda()) {
      const auto planes = torch::from_blob(const_cast<float*>(inputs), {n, io.input_planes, io.canvas, io.canvas});
      return host_outputs(flat_outputs(*net_, planes, device_, dtype_), n, n, io.policy_size());
    }
    c10::OptionalStreamGuard on_own_stream;
    on_own_stream.reset_stream(streams_.at(thread));
    const int rows = padded_batch(n);
    const auto planes = staged_on_pinned_memory(inputs, n, rows, io);
    if (!graphs_.empty()) return host_outputs(graphs_.at(thread)->run(planes), n, rows, io.policy_size());
    std::unique_lock no_capture_meanwhile(torch_compat::capture_mutex(), std::defer_lock);
    if (first_eager_pass(thread, rows)) no_capture_meanwhile.lock();
    return host_outputs(flat_outputs(*net_, planes, device_, dtype_), n, rows, io.policy_size());
  }

  void ownership(const float* inputs, int n, float* out) override {
    if (cpu_) return cpu_->ownership(inputs, n, out);
    c10::InferenceMode inference_mode;
    const std::lock_guard no_capture_meanwhile(torch_compat::capture_mutex());
    const NetworkIo& io = this->io();
    const auto planes = torch::from_blob(const_cast<float*>(inputs), {n, io.input_planes, io.canvas, io.canvas});
    const torch::Tensor owners = net_->forward(to_inference_input(planes, device_, dtype_)).ownership;
    const torch::Tensor host = owners.to(torch::kCPU, torch::kFloat32).contiguous();
    std::memcpy(out, host.data_ptr<float>(), sizeof(float) * n * io.area());
  }

 private:
  struct PlayFile {
    AtaxxNet net{nullptr};
    ModelInfo info;
  };
  static PlayFile load_with_info(const std::string& play_file, NetworkIoOf io_of) {
    PlayFile loaded;
    loaded.net = load_play_file(play_file, &loaded.info, io_of);
    return loaded;
  }

  TorchNetwork(const InferenceOptions& options, std::unique_ptr<EigenNetwork> cpu, PlayFile loaded)
      : LoadedNetwork(std::move(loaded.info)),
        net_(std::move(loaded.net)),
        device_(torch_compat::parse_device(options.device)),
        dtype_(options.bf16 && device_.is_cuda() ? torch::kBFloat16 : torch::kFloat32),
        cpu_(std::move(cpu)) {
    net_->fold_batch_norms();  // in fp32, before any conversion
    net_->to(device_, dtype_);
    net_->eval();
    if (device_.is_cuda()) prepare_cuda(options);
  }

  void prepare_cuda(const InferenceOptions& options) {
    // The inputs arrive channels-last: the weights in the same format spare a conversion per layer.
    torch::NoGradGuard no_grad;
    for (auto& p : net_->parameters())
      if (p.dim() == 4) p.set_data(p.contiguous(at::MemoryFormat::ChannelsLast));
    at::globalContext().setBenchmarkCuDNN(true);  // the few batch sizes recur: autotune them once
    // The server threads run on streams of their own, which do not wait for this thread's.
    torch_compat::synchronize(device_);
    for (int i = 0; i < options.threads; ++i) streams_.push_back(*torch_compat::pool_stream(device_));
    if (options.cuda_graphs)
      for (int i = 0; i < options.threads; ++i)
        graphs_.push_back(std::make_unique<GraphedForward>(
            device_, [net = net_.ptr(), device = device_, dtype = dtype_](const torch::Tensor& planes) {
              return flat_outputs(*net, planes, device, dtype);
            }));
  }

  // Whether this is server thread `thread`'s first pass of `rows` positions without a graph: it may
  // autotune cuDNN and make the thread's first cuBLAS calls, either of which breaks another thread's
  // graph capture (the ladder's players run eagerly beside self-play's graphs).
  bool first_eager_pass(int thread, int rows) {
    const std::lock_guard lock(eager_shapes_mutex_);
    return eager_shapes_.emplace(thread, rows).second;
  }

  AtaxxNet net_;
  torch::Device device_;
  torch::ScalarType dtype_;
  std::unique_ptr<EigenNetwork> cpu_;  // the CPU's small batches
  std::vector<c10::Stream> streams_;   // on a GPU, one per server thread: one's copies overlap another's pass
  std::vector<std::unique_ptr<GraphedForward>> graphs_;  // one per server thread, with CUDA graphs on
  std::mutex eager_shapes_mutex_;
  std::set<std::pair<int, int>> eager_shapes_;  // (server thread, rows) passes run
};

}  // namespace

void check_device(const std::string& device) { torch_compat::parse_device(device); }

std::unique_ptr<LoadedNetwork> load_network(const std::string& play_file, const InferenceOptions& options,
                                            NetworkIoOf io_of) {
  check_torch_options(options);
  if (torch_compat::parse_device(options.device).is_cuda() || options.cpu_path == CpuPath::kTorch)
    return std::make_unique<TorchNetwork>(play_file, options, nullptr, io_of);
  auto cpu = EigenNetwork::load(play_file, options, io_of);
  if (cpu->convolves_directly()) return cpu;
  return std::make_unique<TorchNetwork>(play_file, options, std::move(cpu), io_of);
}

}  // namespace ataxx
