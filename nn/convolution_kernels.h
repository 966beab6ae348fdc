// The direct convolution's kernels, one set per processor level (nn/convolution_kernels.inc, built
// for each level in nn/convolution_kernels.cpp), and the set this process runs: the highest the
// processor has, so that one file built for AVX2 runs at AVX-512's speed where it can.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>

#include "nn/direct_convolution.h"

namespace ataxx::convolution {

// A convolution's weights as DirectConvolution packs them (see its members).
struct ConvolutionWeights {
  const float* weight;              // [9 x inputs, outputs]
  const float* bias;                // [outputs]
  const std::uint32_t* packed;      // bfloat16 pairs or int8 quads, as `precision` says
  const float* weight_scale;        // int8: per output
  int inputs, outputs;
  Precision precision;
};

using RunConvolution = float (*)(const ConvolutionWeights& weights, const float* in, int rows, int area,
                                 std::span<const int> neighbours, float* out, const ConvolutionEpilogue& epilogue,
                                 float largest_input);

struct KernelSet {
  CpuKernels level;
  bool bf16, int8;
  RunConvolution run;
};

// The sets this build holds, lowest level first: plain C++, and the build's own level, or with GCC
// on x86-64 every level.
std::span<const KernelSet> built_kernel_sets();

// Whether this processor (and its operating system) runs a level's instructions.
bool processor_runs(CpuKernels level);

// The highest of `runnable` at most `cap`, a level's name (ATAXX_MAX_CPU_ISA's; null or empty: no
// cap). Throws std::invalid_argument for a cap that names no level.
CpuKernels highest_kernels(std::span<const CpuKernels> runnable, const char* cap);

// Round to nearest even, as the hardware's conversions do (no NaNs reach here).
inline std::uint16_t to_bf16(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return static_cast<std::uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

inline std::uint32_t bf16_pair(float low, float high) { return to_bf16(low) | (std::uint32_t{to_bf16(high)} << 16); }

}  // namespace ataxx::convolution
