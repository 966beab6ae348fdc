#include "nn/direct_convolution.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "nn/convolution_kernels.h"
#include "nn/convolution_plan.h"

namespace ataxx {
namespace {

constexpr std::string_view kKernelNames[] = {"plain", "avx2", "avx-vnni", "avx512", "avx512-vnni", "avx512-bf16"};

const convolution::KernelSet* built_set(CpuKernels kernels) {
  for (const convolution::KernelSet& set : convolution::built_kernel_sets())
    if (set.level == kernels) return &set;
  return nullptr;
}

// The level a cap names (none: no cap, the highest).
CpuKernels cap_named(const char* cap) {
  if (!cap || !*cap) return CpuKernels::kAvx512Bf16;
  for (std::size_t i = 0; i < std::size(kKernelNames); ++i)
    if (kKernelNames[i] == cap) return static_cast<CpuKernels>(i);
  std::string names;
  for (const std::string_view name : kKernelNames) names += (names.empty() ? "" : ", ") + std::string(name);
  throw std::invalid_argument(std::string(kMaxCpuKernelsVariable) + "='" + cap + "' is not a processor level (" +
                              names + ")");
}

// Why a convolution in `precision` with `kernels` cannot be made here.
std::string refusal(Precision precision, CpuKernels kernels) {
  const std::string name(to_string(kernels));
  if (!built_set(kernels)) return "direct convolution: this build holds no " + name + " kernels";
  if (!convolution::processor_runs(kernels)) return "direct convolution: this processor does not run the " + name + " kernels";
  return "direct convolution: the " + name + " kernels compute in no " +
         (precision == Precision::kBf16 ? "bfloat16 (it needs AVX512-BF16)" : "int8 (it needs AVX2)");
}

}  // namespace

std::string_view to_string(CpuKernels kernels) { return kKernelNames[static_cast<int>(kernels)]; }

namespace convolution {

CpuKernels highest_kernels(std::span<const CpuKernels> runnable, const char* cap) {
  const CpuKernels most = cap_named(cap);
  CpuKernels chosen = CpuKernels::kPlain;
  for (const CpuKernels kernels : runnable)
    if (kernels <= most) chosen = std::max(chosen, kernels);
  return chosen;
}

}  // namespace convolution

CpuKernels DirectConvolution::cpu_kernels() {
  static const CpuKernels chosen =
      convolution::highest_kernels(runnable_kernels(), std::getenv(kMaxCpuKernelsVariable));
  return chosen;
}

std::vector<CpuKernels> DirectConvolution::runnable_kernels() {
  std::vector<CpuKernels> runnable;
  for (const convolution::KernelSet& set : convolution::built_kernel_sets())
    if (convolution::processor_runs(set.level)) runnable.push_back(set.level);
  return runnable;
}

namespace {

// For each cell of a square canvas and each tap (dy, then dx), the cell it reads, or -1 off the
// canvas; with `centre_only`, every tap but the centre off the canvas.
std::vector<int> make_table(int canvas, bool centre_only) {
  std::vector<int> neighbours;
  neighbours.reserve(static_cast<std::size_t>(canvas) * canvas * convolution::kTaps);
  for (int row = 0; row < canvas; ++row)
    for (int column = 0; column < canvas; ++column)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int y = row + dy, x = column + dx;
          const bool off = y < 0 || y >= canvas || x < 0 || x >= canvas || (centre_only && (dy || dx));
          neighbours.push_back(off ? -1 : y * canvas + x);
        }
  return neighbours;
}

// Each table made once and never freed: run's plans are kept by a table's address, which no other
// table can then take.
std::span<const int> interned_table(int canvas, bool centre_only) {
  static std::mutex mutex;
  static std::map<std::pair<int, bool>, std::vector<int>> tables;
  const std::lock_guard lock(mutex);
  const auto [table, made] = tables.try_emplace({canvas, centre_only});
  if (made) table->second = make_table(canvas, centre_only);
  return table->second;
}

}  // namespace

std::span<const int> DirectConvolution::neighbour_table(int canvas) { return interned_table(canvas, false); }

std::span<const int> DirectConvolution::centre_table(int canvas) { return interned_table(canvas, true); }

bool DirectConvolution::available(Precision precision, CpuKernels kernels) {
  const convolution::KernelSet* set = built_set(kernels);
  if (!set || !convolution::processor_runs(kernels)) return false;
  switch (precision) {
    case Precision::kBf16:
      return set->bf16;
    case Precision::kInt8:
      return set->int8;
    case Precision::kFloat:
      break;
  }
  return true;
}

DirectConvolution::DirectConvolution(const float* weight, const float* bias, int inputs, int outputs,
                                     Precision precision, CpuKernels kernels)
    : inputs_(inputs),
      outputs_(outputs),
      precision_(precision),
      kernels_(kernels),
      kernel_set_(built_set(kernels)),
      weight_(weight, weight + convolution::kTaps * inputs * outputs),
      bias_(bias, bias + outputs) {
  if (!supports(outputs))
    throw std::invalid_argument("direct convolution: " + std::to_string(outputs) + " outputs (32 or 64 only)");
  if (!available(precision, kernels)) throw std::invalid_argument(refusal(precision, kernels));
  const auto at = [&](int tap, int i, int o) { return i < inputs ? weight[(tap * inputs + i) * outputs + o] : 0.0f; };
  if (precision == Precision::kBf16) {
    const int pair_count = (inputs + 1) / 2;
    packed_weight_.resize(static_cast<std::size_t>(convolution::kTaps) * pair_count * outputs);
    for (int tap = 0; tap < convolution::kTaps; ++tap)
      for (int k = 0; k < pair_count; ++k)
        for (int o = 0; o < outputs; ++o)
          packed_weight_[(static_cast<std::size_t>(tap) * pair_count + k) * outputs + o] =
              convolution::bf16_pair(at(tap, 2 * k, o), at(tap, 2 * k + 1, o));
  }
  if (precision == Precision::kInt8) {
    const int quad_count = (inputs + 3) / 4;
    weight_scale_.assign(outputs, 0.0f);
    for (int o = 0; o < outputs; ++o) {
      for (int tap = 0; tap < convolution::kTaps; ++tap)
        for (int i = 0; i < inputs; ++i) weight_scale_[o] = std::max(weight_scale_[o], std::abs(at(tap, i, o)));
      weight_scale_[o] = weight_scale_[o] > 0.0f ? weight_scale_[o] / 127.0f : 1.0f;
    }
    packed_weight_.resize(static_cast<std::size_t>(convolution::kTaps) * quad_count * outputs);
    for (int tap = 0; tap < convolution::kTaps; ++tap)
      for (int k = 0; k < quad_count; ++k)
        for (int o = 0; o < outputs; ++o) {
          std::uint32_t word = 0;
          for (int j = 0; j < 4; ++j) {
            const auto q = static_cast<std::int8_t>(std::lround(at(tap, 4 * k + j, o) / weight_scale_[o]));
            word |= std::uint32_t{static_cast<std::uint8_t>(q)} << (8 * j);
          }
          packed_weight_[(static_cast<std::size_t>(tap) * quad_count + k) * outputs + o] = word;
        }
  }
}

float DirectConvolution::run(const float* in, int rows, int area, std::span<const int> neighbours, float* out,
                             const ConvolutionEpilogue& epilogue, float largest_input) const {
  const convolution::ConvolutionWeights weights{weight_.data(), bias_.data(),   packed_weight_.data(),
                                                weight_scale_.data(), inputs_, outputs_, precision_};
  return kernel_set_->run(weights, in, rows, area, neighbours, out, epilogue, largest_input);
}

}  // namespace ataxx
