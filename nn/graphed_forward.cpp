#include "nn/graphed_forward.h"

#include <map>
#include <mutex>
#include <stdexcept>

#ifdef ATAXX_CUDA_GRAPHS
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include "nn/torch_compat.h"

namespace ataxx {

#ifdef ATAXX_CUDA_GRAPHS

namespace {

// Eager passes before a capture: cuDNN autotunes the batch's shape and cuBLAS sets up its handle
// and workspace, none of which may happen inside a capture.
constexpr int kWarmUpPasses = 3;

struct CapturedBatch {
  std::unique_ptr<at::cuda::CUDAGraph> graph;
  torch::Tensor planes;   // the graph's input on the device, written before each replay
  torch::Tensor outputs;  // the graph's outputs on the device
};

// Ends a capture however its forward pass ends: one that throws between capture_begin and
// capture_end would leave the stream capturing for good, and every later call on it failing.
class CaptureGuard {
 public:
  CaptureGuard(at::cuda::CUDAGraph& graph, at::cuda::MempoolId_t pool) : graph_(graph) {
    graph_.capture_begin(pool, cudaStreamCaptureModeThreadLocal);
  }
  ~CaptureGuard() {
    if (ended_) return;
    try {
      graph_.capture_end();  // the graph is dropped with the batch that failed
    } catch (...) {
      // The capture was broken as well: ending it is all that mattered.
    }
  }
  void end() {
    ended_ = true;
    graph_.capture_end();
  }

 private:
  at::cuda::CUDAGraph& graph_;
  bool ended_ = false;
};

c10::DeviceIndex cuda_index(torch::Device device) {
  if (!device.is_cuda()) throw std::invalid_argument("inference: cuda_graphs needs a CUDA device");
  return device.has_index() ? device.index() : c10::cuda::current_device();
}

}  // namespace

struct GraphedForward::Impl {
  Impl(torch::Device device, Forward forward) : device(cuda_index(device)), forward(std::move(forward)) {
    c10::cuda::CUDAGuard on_device(this->device);
    C10_CUDA_CHECK(cudaStreamCreateWithFlags(&capture_stream, cudaStreamNonBlocking));
  }
  ~Impl() {
    // Destroying graphs frees their pool's memory (cudaFree synchronises the device), which
    // must not land inside another thread's capture.
    const std::lock_guard<std::mutex> no_capture_meanwhile(torch_compat::capture_mutex());
    batches.clear();
    cudaStreamDestroy(capture_stream);
  }

  CapturedBatch& batch_for(const torch::Tensor& planes) {
    const std::int64_t rows = planes.size(0);
    auto found = batches.find(rows);
    if (found == batches.end()) found = batches.emplace(rows, capture(planes.sizes())).first;
    return found->second;
  }

  // Captures on a stream of its own: work that another thread sends to a stream while it is being
  // captured would be captured too, and the pool's streams can be shared by threads. ThreadLocal
  // mode lets the other server threads go on replaying and copying meanwhile; what would break the
  // capture (their own warm-ups and captures, a device-wide sync) waits for capture_mutex().
  CapturedBatch capture(torch::IntArrayRef sizes) {
    const std::lock_guard<std::mutex> one_capture_at_a_time(torch_compat::capture_mutex());
    const c10::cuda::CUDAStream stream = c10::cuda::getStreamFromExternal(capture_stream, device);
    c10::cuda::CUDAStreamGuard on_capture_stream(stream);
    CapturedBatch batch;
    batch.planes = torch::zeros(sizes, torch::TensorOptions().device(torch::kCUDA, device));
    for (int i = 0; i < kWarmUpPasses; ++i) forward(batch.planes);
    stream.synchronize();
    batch.graph = std::make_unique<at::cuda::CUDAGraph>();
    CaptureGuard capturing(*batch.graph, pool);
    batch.outputs = forward(batch.planes);
    capturing.end();
    if (pool == at::cuda::MempoolId_t{0, 0}) pool = batch.graph->pool();
    return batch;
  }

  c10::DeviceIndex device;
  Forward forward;
  cudaStream_t capture_stream = nullptr;
  std::map<std::int64_t, CapturedBatch> batches;  // by batch size
  // The graphs share one memory pool. Safe because they replay one at a time on one thread and
  // each replay's outputs are copied out (stream-ordered) before the next replay.
  at::cuda::MempoolId_t pool{0, 0};
};

GraphedForward::GraphedForward(torch::Device device, Forward forward)
    : impl_(std::make_unique<Impl>(device, std::move(forward))) {}

torch::Tensor GraphedForward::run(const torch::Tensor& planes) {
  CapturedBatch& batch = impl_->batch_for(planes);
  batch.planes.copy_(planes, /*non_blocking=*/true);
  batch.graph->replay();
  return batch.outputs;
}

#else

struct GraphedForward::Impl {};

GraphedForward::GraphedForward(torch::Device, Forward) {
  throw std::invalid_argument(
      "inference: cuda_graphs needs a build with -DATAXX_CUDA_GRAPHS=ON (LibTorch 2.x with CUDA; tools/gpu/build.sh)");
}

torch::Tensor GraphedForward::run(const torch::Tensor&) { throw std::logic_error("GraphedForward: not built"); }

#endif

GraphedForward::~GraphedForward() = default;

}  // namespace ataxx
