// A 3x3 convolution to 32 or 64 channels for the CPU's small batches, computed directly: a block
// of cells' sums held in vector registers, each weight row loaded once for the block, no im2col
// copy and none of a GEMM's packing. In float, or in bfloat16 (weights and inputs rounded, sums in
// float: AVX512-BF16's dot product of pairs, twice the float rate) where the processor has it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ataxx {

class DirectConvolution {
 public:
  static bool supports(int outputs) { return outputs == 32 || outputs == 64; }
  // Whether this build can run bfloat16 (compiled for a processor with AVX512-BF16).
  static bool bf16_available();

  // weight: [9 x inputs, outputs] row-major, tap by tap (dy, then dx); bias: [outputs]. bf16 asks
  // for bfloat16 where available (else float). Throws std::invalid_argument for other outputs.
  DirectConvolution(const float* weight, const float* bias, int inputs, int outputs, bool bf16);

  bool bf16() const { return !pairs_.empty(); }
  // in: rows [positions x cells] of `inputs` floats; out: the same rows of `outputs` floats.
  // neighbours: for each cell of a position and each tap, the cell it reads, or -1 off the canvas.
  void run(const float* in, int rows, int area, std::span<const int> neighbours, float* out) const;

 private:
  int inputs_, outputs_;
  std::vector<float> weight_, bias_;
  // bfloat16 weights: for each tap and pair of inputs, each output's two weights in one word.
  std::vector<std::uint32_t> pairs_;
};

}  // namespace ataxx
