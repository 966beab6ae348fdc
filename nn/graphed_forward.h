// A forward pass replayed from CUDA graphs: each batch size is captured the first time it runs, and
// from then on a batch costs one graph launch instead of one launch per layer (the H100's eager
// forward carries about 1.2 ms of fixed cost a batch). Built with ATAXX_CUDA_GRAPHS (LibTorch 2.x
// with CUDA, tools/gpu/build.sh); elsewhere constructing one throws.
#pragma once

#include <functional>
#include <memory>

#include <torch/torch.h>

namespace ataxx {

class GraphedForward {
 public:
  // `forward` takes a batch of float32 input planes on the device and returns the outputs as one
  // device tensor; it must not synchronise with the host, as a capture cannot.
  using Forward = std::function<torch::Tensor(const torch::Tensor& planes)>;

  // Throws std::invalid_argument where this build has no CUDA graphs.
  GraphedForward(torch::Device device, Forward forward);
  ~GraphedForward();
  GraphedForward(const GraphedForward&) = delete;
  GraphedForward& operator=(const GraphedForward&) = delete;

  // Copies `planes` (pinned host memory) to the device and replays its batch size's graph, both on
  // the calling thread's current stream. The outputs are overwritten by the next call. One thread
  // at a time.
  torch::Tensor run(const torch::Tensor& planes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ataxx
