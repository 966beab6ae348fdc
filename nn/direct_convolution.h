// A 3x3 convolution to 32 or 64 channels for the CPU's small batches, computed directly: a block
// of cells' sums held in vector registers, each weight row loaded once for the block, no im2col
// copy and none of a GEMM's packing. In float; in bfloat16 (weights and inputs rounded, sums in
// float: AVX512-BF16's dot product of pairs, twice the float rate); or in 8-bit integers (weights
// scaled per output, inputs per call, sums in int32: AVX512-VNNI's dot product of quads, twice
// bfloat16's rate; AVX-VNNI's, the same in 8 lanes; or AVX2's products of pairs, twice its float
// rate), each where the processor has it. Cells are taken in blocks that share the taps at which
// they read off the canvas, and a block skips those taps. At batch 8 on AVX512-VNNI the kernel runs
// near the processor's rate of dot products (docs/speed.md). The kernels are built for each
// processor level and the process runs the highest its processor has (CpuKernels), so that a
// program built for any AVX2 processor computes with AVX-512 where there is AVX-512.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "nn/inference_options.h"

namespace ataxx {
namespace convolution {
struct KernelSet;
}

// What a convolution's sums go through before they are stored, each step optional:
// out = max(0, sum + residual) * mask[row]. Done a block of rows at a time, while they are in cache.
struct ConvolutionEpilogue {
  const float* residual = nullptr;  // rows of `outputs` floats; may be the output itself
  const float* mask = nullptr;      // a factor per row (a board's cells 1, its gaps 0)
  bool relu = false;
};

// The processor levels the kernels are built for, lowest first.
enum class CpuKernels {
  kPlain,       // C++ alone: float
  kAvx2,        // AVX2 and FMA (x86-64-v3): float, int8 in pairs
  kAvxVnni,     // AVX-VNNI as well: int8 in quads
  kAvx512,      // AVX-512 (x86-64-v4): float and int8 in 512 bits, int8 in pairs
  kAvx512Vnni,  // AVX512-VNNI as well: int8 in quads
  kAvx512Bf16,  // AVX512-BF16 as well: bfloat16
};

// "plain", "avx2", "avx-vnni", "avx512", "avx512-vnni", "avx512-bf16".
std::string_view to_string(CpuKernels kernels);

// The environment variable that caps the level a process runs, set to one of the names above
// (oneDNN's ONEDNN_MAX_CPU_ISA does the same): to measure a lower level on a faster processor.
inline constexpr const char* kMaxCpuKernelsVariable = "ATAXX_MAX_CPU_ISA";

class DirectConvolution {
 public:
  static bool supports(int outputs) { return outputs == 32 || outputs == 64; }
  // The kernels this process computes with: the highest level built that the processor runs, at
  // most ATAXX_MAX_CPU_ISA's where that is set. Throws std::invalid_argument for a name in it that
  // is not a level.
  static CpuKernels cpu_kernels();
  // Every level built that the processor runs, lowest first (the tests try each).
  static std::vector<CpuKernels> runnable_kernels();
  // Whether those kernels compute in that precision (float always; bfloat16 with AVX512-BF16, int8
  // from AVX2 on).
  static bool available(Precision precision, CpuKernels kernels = cpu_kernels());

  // weight: [9 x inputs, outputs] row-major, tap by tap (dy, then dx); bias: [outputs]. Throws
  // std::invalid_argument for other outputs, or kernels this processor does not run or that do not
  // compute in that precision.
  DirectConvolution(const float* weight, const float* bias, int inputs, int outputs, Precision precision,
                    CpuKernels kernels = cpu_kernels());

  // run's neighbours for a square canvas of side `canvas`: cell by cell, tap by tap (dy, then dx).
  // Made once per canvas, for the life of the process: run keeps what it works out from a table by
  // the table's address.
  static std::span<const int> neighbour_table(int canvas);
  // The same with every tap but the centre off the canvas: a 1x1 convolution, given as a 3x3 one
  // with its weights at the centre tap, reads that tap alone.
  static std::span<const int> centre_table(int canvas);

  Precision precision() const { return precision_; }
  CpuKernels kernels() const { return kernels_; }
  int outputs() const { return outputs_; }
  // in: rows [positions x cells] of `inputs` floats; out: the same rows of `outputs` floats.
  // neighbours: for each cell of a position and each tap, the cell it reads, or -1 off the canvas:
  // neighbour_table's or centre_table's (a thread keeps what it works out from one by its address).
  // In int8 the inputs are scaled by their maximum to 0..255 (AVX512-VNNI, AVX-VNNI) or 0..127 (AVX2,
  // AVX-512 without VNNI): a call with a negative input is computed in float instead. largest_input: the largest
  // of `in` where the caller knows it and none is negative (a run's result with relu before), else
  // -1 (it is looked for). Returns the largest output.
  float run(const float* in, int rows, int area, std::span<const int> neighbours, float* out,
            const ConvolutionEpilogue& epilogue = {}, float largest_input = -1.0f) const;

 private:
  int inputs_, outputs_;
  Precision precision_;
  CpuKernels kernels_;
  const convolution::KernelSet* kernel_set_;
  std::vector<float> weight_, bias_;
  // bfloat16: for each tap and pair of inputs, each output's two weights in one word. int8: for
  // each tap and quad of inputs, each output's four weights in one word, scaled by weight_scale_.
  std::vector<std::uint32_t> packed_weight_;
  std::vector<float> weight_scale_;  // int8: per output, the weight that 1 stands for
};

}  // namespace ataxx
