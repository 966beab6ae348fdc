#include "nn/direct_convolution.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#if defined(__AVX512BF16__)
#include <immintrin.h>
#endif

namespace ataxx {
namespace {

// Sixteen floats that the compiler keeps in one vector register (or two or four narrower ones):
// GCC's and Clang's vector extension. Rows are loaded and stored through casts, not memcpy: GCC
// kept sums whose address memcpy took in memory, 3x slower.
using Lane = float __attribute__((vector_size(64)));
using UnalignedLane = float __attribute__((vector_size(64), aligned(4)));
constexpr int kLaneWidth = 16;
constexpr int kTaps = 9;

// The rows block `first` reads at `tap`, kBlock of them: a short last block repeats its last cell.
template <typename T, int kBlock>
void block_sources(const T* in, int row_size, int first, int rows, int area, int tap,
                   std::span<const int> neighbours, const T* zeros, const T* (&source)[kBlock]) {
  const int count = std::min(kBlock, rows - first);
  for (int b = 0; b < kBlock; ++b) {
    const int row = first + std::min(b, count - 1);
    const int cell = row % area, read = neighbours[cell * kTaps + tap];
    source[b] = read < 0 ? zeros : in + static_cast<std::size_t>(row - cell + read) * row_size;
  }
}

template <int kOut, int kBlock>
void run_float(const float* weight, const float* bias_row, int inputs, const float* in, int rows, int area,
               std::span<const int> neighbours, float* out) {
  constexpr int kLanes = kOut / kLaneWidth;
  thread_local std::vector<float> zeros;
  zeros.assign(inputs, 0.0f);
  const auto* bias = reinterpret_cast<const UnalignedLane*>(bias_row);
  for (int first = 0; first < rows; first += kBlock) {
    Lane sums[kBlock][kLanes];
    for (int b = 0; b < kBlock; ++b)
      for (int l = 0; l < kLanes; ++l) sums[b][l] = bias[l];
    for (int tap = 0; tap < kTaps; ++tap) {
      const float* source[kBlock];
      block_sources<float, kBlock>(in, inputs, first, rows, area, tap, neighbours, zeros.data(), source);
      const auto* w = reinterpret_cast<const UnalignedLane*>(weight + static_cast<std::size_t>(tap) * inputs * kOut);
      for (int i = 0; i < inputs; ++i, w += kLanes)
#pragma GCC unroll 16
        for (int b = 0; b < kBlock; ++b)
#pragma GCC unroll 4
          for (int l = 0; l < kLanes; ++l) sums[b][l] += source[b][i] * w[l];
    }
    for (int b = 0; b < std::min(kBlock, rows - first); ++b)
      for (int l = 0; l < kLanes; ++l) reinterpret_cast<UnalignedLane*>(out + (first + b) * kOut)[l] = sums[b][l];
  }
}

// Round to nearest even, as the hardware's conversions do (no NaNs reach here).
std::uint16_t to_bf16(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return static_cast<std::uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

std::uint32_t bf16_pair(float low, float high) { return to_bf16(low) | (std::uint32_t{to_bf16(high)} << 16); }

#if defined(__AVX512BF16__)
// pairs: [tap][input pair][output] words; in: rows of `pair_count` words (two bfloat16 inputs).
template <int kOut, int kBlock>
void run_bf16(const std::uint32_t* pairs, const float* bias_row, int pair_count, const std::uint32_t* in, int rows,
              int area, std::span<const int> neighbours, float* out) {
  constexpr int kLanes = kOut / kLaneWidth;
  thread_local std::vector<std::uint32_t> zeros;
  zeros.assign(pair_count, 0);
  for (int first = 0; first < rows; first += kBlock) {
    __m512 sums[kBlock][kLanes];
    for (int b = 0; b < kBlock; ++b)
      for (int l = 0; l < kLanes; ++l) sums[b][l] = _mm512_loadu_ps(bias_row + l * kLaneWidth);
    for (int tap = 0; tap < kTaps; ++tap) {
      const std::uint32_t* source[kBlock];
      block_sources<std::uint32_t, kBlock>(in, pair_count, first, rows, area, tap, neighbours, zeros.data(), source);
      const std::uint32_t* w = pairs + static_cast<std::size_t>(tap) * pair_count * kOut;
      for (int k = 0; k < pair_count; ++k, w += kOut) {
        __m512bh weights[kLanes];
        for (int l = 0; l < kLanes; ++l) weights[l] = (__m512bh)_mm512_loadu_si512(w + l * kLaneWidth);
#pragma GCC unroll 16
        for (int b = 0; b < kBlock; ++b) {
          const __m512bh x = (__m512bh)_mm512_set1_epi32(static_cast<int>(source[b][k]));
#pragma GCC unroll 4
          for (int l = 0; l < kLanes; ++l) sums[b][l] = _mm512_dpbf16_ps(sums[b][l], x, weights[l]);
        }
      }
    }
    for (int b = 0; b < std::min(kBlock, rows - first); ++b)
      for (int l = 0; l < kLanes; ++l) _mm512_storeu_ps(out + (first + b) * kOut + l * kLaneWidth, sums[b][l]);
  }
}
#endif

}  // namespace

bool DirectConvolution::bf16_available() {
#if defined(__AVX512BF16__)
  return true;
#else
  return false;
#endif
}

DirectConvolution::DirectConvolution(const float* weight, const float* bias, int inputs, int outputs, bool bf16)
    : inputs_(inputs), outputs_(outputs), weight_(weight, weight + kTaps * inputs * outputs), bias_(bias, bias + outputs) {
  if (!supports(outputs))
    throw std::invalid_argument("direct convolution: " + std::to_string(outputs) + " outputs (32 or 64 only)");
  if (!bf16 || !bf16_available()) return;
  const int pair_count = (inputs + 1) / 2;
  pairs_.resize(static_cast<std::size_t>(kTaps) * pair_count * outputs);
  for (int tap = 0; tap < kTaps; ++tap)
    for (int k = 0; k < pair_count; ++k)
      for (int o = 0; o < outputs; ++o) {
        const auto at = [&](int i) { return i < inputs ? weight[(tap * inputs + i) * outputs + o] : 0.0f; };
        pairs_[(static_cast<std::size_t>(tap) * pair_count + k) * outputs + o] = bf16_pair(at(2 * k), at(2 * k + 1));
      }
}

void DirectConvolution::run(const float* in, int rows, int area, std::span<const int> neighbours, float* out) const {
#if defined(__AVX512BF16__)
  if (bf16()) {
    const int pair_count = (inputs_ + 1) / 2;
    thread_local std::vector<std::uint32_t> packed;
    packed.resize(static_cast<std::size_t>(rows) * pair_count);
    for (int row = 0; row < rows; ++row)
      for (int k = 0; k < pair_count; ++k) {
        const float* x = in + static_cast<std::size_t>(row) * inputs_ + 2 * k;
        packed[static_cast<std::size_t>(row) * pair_count + k] = bf16_pair(x[0], 2 * k + 1 < inputs_ ? x[1] : 0.0f);
      }
    if (outputs_ == 32)
      return run_bf16<32, 8>(pairs_.data(), bias_.data(), pair_count, packed.data(), rows, area, neighbours, out);
    return run_bf16<64, 4>(pairs_.data(), bias_.data(), pair_count, packed.data(), rows, area, neighbours, out);
  }
#endif
  if (outputs_ == 32) return run_float<32, 8>(weight_.data(), bias_.data(), inputs_, in, rows, area, neighbours, out);
  run_float<64, 4>(weight_.data(), bias_.data(), inputs_, in, rows, area, neighbours, out);
}

}  // namespace ataxx
