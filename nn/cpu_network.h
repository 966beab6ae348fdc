// The network's inference forward pass on the CPU, in Eigen, built for the small batches of play
// (UAI at 1-16 leaves a round), where LibTorch spends most of its time per operator rather than
// per position: batch norms folded, a 3x3 or 1x1 convolution to 32 or 64 channels computed
// directly (nn/direct_convolution.h, in float, bfloat16 or int8; the heads' 1x1 ones in float), its
// ReLU, mask and residual as it stores each block of rows, any other one GEMM over the whole batch
// (im2col), activations as [positions x cells, channels] row-major matrices. Plain C++: no torch.
// The same outputs as AtaxxNet::forward's policy logits, win/draw/loss, piece lead and ownership (a
// test compares them).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nn/direct_convolution.h"
#include "nn/model_info.h"
#include "nn/play_file.h"

namespace ataxx {

class CpuNetwork {
 public:
  // Throws std::invalid_argument when a parameter is missing or has another shape, or for a
  // precision the processor lacks (DirectConvolution::available): the direct convolutions' one.
  CpuNetwork(const ModelShape& shape, const NetworkIo& io, const FoldedParameters& parameters,
             Precision precision = Precision::kFloat);
  ~CpuNetwork();

  // inputs: n encoded positions; policy_logits: n rows of io.policy_size(); wdl: n rows of
  // win, draw, loss probabilities; lead: n expected final piece leads (AtaxxNet's piece_diff).
  // Safe from several threads at once (scratch is per thread).
  void forward(const float* inputs, int n, float* policy_logits, float* wdl, float* lead) const;
  // out: n rows of io.area(), each canvas cell's final owner from the side to move's view, in
  // [-1, 1] (AtaxxNet's ownership head; cells off the board mean nothing).
  void ownership(const float* inputs, int n, float* out) const;
  // Every 3x3 convolution direct (32 or 64 channels): then faster than LibTorch at any batch.
  bool convolves_directly() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ataxx
