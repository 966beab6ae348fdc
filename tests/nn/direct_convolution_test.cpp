// The CPU forward's direct 3x3 convolutions, with each level of kernels this processor runs, in
// each number format the level has, against a plain convolution. Plain C++: tests/CMakeLists.txt
// builds this suite again for any x86-64 processor, as the portable programs are built.
#include "nn/direct_convolution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "nn/convolution_kernels.h"

namespace ataxx {

// Names each test's level as gtest lists it.
void PrintTo(CpuKernels level, std::ostream* out) { *out << to_string(level); }

namespace {

// What a convolution computes, in double, with the bound of its error in `precision`: each term's
// inputs rounded by at most half a step (int8: a 127th of the largest input and of each output's
// largest weight; bfloat16: 2^-9 of each value), and float's sums.
struct PlainConvolution {
  std::vector<double> out, bound;
};

PlainConvolution plain_convolution(const std::vector<float>& weight, const std::vector<float>& bias,
                                   const std::vector<float>& in, int inputs, int outputs, int rows, int area,
                                   std::span<const int> neighbours, Precision precision) {
  const float largest_input = *std::max_element(in.begin(), in.end());
  std::vector<float> largest_weight(outputs, 0.0f);
  for (std::size_t i = 0; i < weight.size(); ++i)
    largest_weight[i % outputs] = std::max(largest_weight[i % outputs], std::abs(weight[i]));
  PlainConvolution plain{std::vector<double>(static_cast<std::size_t>(rows) * outputs),
                         std::vector<double>(static_cast<std::size_t>(rows) * outputs)};
  for (int row = 0; row < rows; ++row) {
    const int position = row / area * area, cell = row % area;
    for (int o = 0; o < outputs; ++o) {
      double sum = bias[o], bound = 0.0, magnitude = std::abs(bias[o]);
      const double input_step = largest_input / 127.0, weight_step = largest_weight[o] / 127.0;
      for (int tap = 0; tap < 9; ++tap) {
        const int read = neighbours[cell * 9 + tap];
        if (read < 0) continue;
        for (int i = 0; i < inputs; ++i) {
          const double x = in[static_cast<std::size_t>(position + read) * inputs + i];
          const double w = weight[(static_cast<std::size_t>(tap) * inputs + i) * outputs + o];
          sum += x * w;
          magnitude += std::abs(x * w);
          if (precision == Precision::kInt8)
            bound += std::abs(x) * weight_step / 2 + std::abs(w) * input_step / 2 + input_step * weight_step / 4;
          if (precision == Precision::kBf16) bound += std::abs(x * w) * (2.0 / 512 + 1.0 / 262144);
        }
      }
      plain.out[static_cast<std::size_t>(row) * outputs + o] = sum;
      plain.bound[static_cast<std::size_t>(row) * outputs + o] = bound + magnitude * 1e-5;
    }
  }
  return plain;
}

// Values in [low, high), a fixed pseudo-random sequence per seed.
std::vector<float> values(std::size_t count, float low, float high, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<float> out(count);
  for (float& value : out) value = low + (high - low) * static_cast<float>(random() >> 8) / (1 << 24);
  return out;
}

// Each test below runs with each level of kernels this processor runs.
class DirectConvolutionKernels : public testing::TestWithParam<CpuKernels> {
 protected:
  // Whether the level computes in int8; where it does not, a convolution asked for it is refused.
  bool int8_available_else_refused() const {
    if (DirectConvolution::available(Precision::kInt8, GetParam())) return true;
    const std::vector<float> weight(9 * 32 * 32), bias(32);
    EXPECT_THROW(DirectConvolution(weight.data(), bias.data(), 32, 32, Precision::kInt8, GetParam()),
                 std::invalid_argument);
    return false;
  }
};

INSTANTIATE_TEST_SUITE_P(EachLevel, DirectConvolutionKernels, testing::ValuesIn(DirectConvolution::runnable_kernels()),
                         [](const testing::TestParamInfo<CpuKernels>& level) {
                           std::string name(to_string(level.param));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A process computes with the highest level its processor runs (at most ATAXX_MAX_CPU_ISA's), and
// with GCC on x86-64 every level the processor runs is built in.
TEST(DirectConvolution, ComputesWithTheHighestLevelItsProcessorRuns) {
  const std::vector<CpuKernels> runnable = DirectConvolution::runnable_kernels();
  ASSERT_FALSE(runnable.empty());
  EXPECT_EQ(runnable.front(), CpuKernels::kPlain);
  EXPECT_EQ(DirectConvolution::cpu_kernels(),
            convolution::highest_kernels(runnable, std::getenv(kMaxCpuKernelsVariable)));
  // Set where the suite runs on an emulated processor whose level the test knows.
  if (const char* expected = std::getenv("ATAXX_TEST_EXPECTED_KERNELS")) {
    EXPECT_EQ(to_string(DirectConvolution::cpu_kernels()), std::string(expected));
  }
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  const auto runs = [&](CpuKernels level) { return std::find(runnable.begin(), runnable.end(), level) != runnable.end(); };
  __builtin_cpu_init();
  EXPECT_EQ(runs(CpuKernels::kAvx2), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                                         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("movbe"));
  EXPECT_EQ(runs(CpuKernels::kAvxVnni), runs(CpuKernels::kAvx2) && __builtin_cpu_supports("avxvnni"));
  EXPECT_EQ(runs(CpuKernels::kAvx512), runs(CpuKernels::kAvx2) && __builtin_cpu_supports("avx512f") &&
                                           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                                           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd"));
  EXPECT_EQ(runs(CpuKernels::kAvx512Vnni), runs(CpuKernels::kAvx512) && __builtin_cpu_supports("avx512vnni"));
  EXPECT_EQ(runs(CpuKernels::kAvx512Bf16), runs(CpuKernels::kAvx512Vnni) && __builtin_cpu_supports("avx512bf16"));
#endif
}

// The cap takes the highest level at most its own among those the processor runs (not one above
// them), and names a level or is refused with the levels' names.
TEST(DirectConvolution, TheCapKeepsToTheLevelsTheProcessorRuns) {
  const std::vector<CpuKernels> runnable = {CpuKernels::kPlain, CpuKernels::kAvx2, CpuKernels::kAvx512Vnni};
  EXPECT_EQ(convolution::highest_kernels(runnable, nullptr), CpuKernels::kAvx512Vnni);
  EXPECT_EQ(convolution::highest_kernels(runnable, ""), CpuKernels::kAvx512Vnni);
  EXPECT_EQ(convolution::highest_kernels(runnable, "avx512-bf16"), CpuKernels::kAvx512Vnni);
  EXPECT_EQ(convolution::highest_kernels(runnable, "avx512"), CpuKernels::kAvx2);
  EXPECT_EQ(convolution::highest_kernels(runnable, "avx-vnni"), CpuKernels::kAvx2);
  EXPECT_EQ(convolution::highest_kernels(runnable, "avx2"), CpuKernels::kAvx2);
  EXPECT_EQ(convolution::highest_kernels(runnable, "plain"), CpuKernels::kPlain);
  try {
    convolution::highest_kernels(runnable, "AVX2");
    ADD_FAILURE() << "a cap in capitals was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "ATAXX_MAX_CPU_ISA='AVX2' is not a processor level (plain, avx2, avx-vnni, avx512, "
                 "avx512-vnni, avx512-bf16)");
  }
}

// Kernels the processor does not run are refused, whatever the precision (on an emulated processor
// without AVX-512 the AVX-512 levels; everywhere a level in a precision it lacks).
TEST(DirectConvolution, KernelsTheProcessorDoesNotRunAreRefused) {
  const std::vector<float> weight(9 * 32 * 32), bias(32);
  const std::vector<CpuKernels> runnable = DirectConvolution::runnable_kernels();
  for (const CpuKernels level : {CpuKernels::kPlain, CpuKernels::kAvx2, CpuKernels::kAvxVnni, CpuKernels::kAvx512,
                                 CpuKernels::kAvx512Vnni, CpuKernels::kAvx512Bf16}) {
    if (std::find(runnable.begin(), runnable.end(), level) != runnable.end()) continue;
    EXPECT_FALSE(DirectConvolution::available(Precision::kFloat, level)) << to_string(level);
    EXPECT_THROW(DirectConvolution(weight.data(), bias.data(), 32, 32, Precision::kFloat, level), std::invalid_argument)
        << to_string(level);
  }
  EXPECT_THROW(DirectConvolution(weight.data(), bias.data(), 32, 32, Precision::kInt8, CpuKernels::kPlain),
               std::invalid_argument);
}

// Every precision this build has, 32 and 64 outputs, inputs that fill whole vectors or not (the
// input layer's 17 planes), several positions of several canvases in a call: each value within
// its precision's bound of the plain convolution, the errors small on the whole (a format that
// sums the wrong bytes passes no bound), and the largest output returned. Which rows each cell
// reads is worked out once per batch and kept for the thread's next calls: calls of other sizes
// and canvases, one after another, each read their own rows.
TEST_P(DirectConvolutionKernels, EveryPrecisionAgreesWithAPlainConvolution) {
  for (const Precision precision : {Precision::kFloat, Precision::kBf16, Precision::kInt8}) {
    if (!DirectConvolution::available(precision, GetParam())) continue;
    for (const int outputs : {32, 64})
      for (const int inputs : {17, 32, 64})
        for (const auto& [side, positions] : {std::pair{7, 1}, {8, 2}, {5, 3}}) {
          const int area = side * side, rows = positions * area;
          const std::span<const int> neighbours = DirectConvolution::neighbour_table(side);
          const auto weight = values(9u * inputs * outputs, -1.0f, 1.0f, inputs + outputs);
          const auto bias = values(outputs, -0.5f, 0.5f, 3);
          const auto in = values(static_cast<std::size_t>(rows) * inputs, 0.0f, 2.0f, side);
          const DirectConvolution convolution(weight.data(), bias.data(), inputs, outputs, precision, GetParam());
          std::vector<float> out(static_cast<std::size_t>(rows) * outputs);
          const float largest = convolution.run(in.data(), rows, area, neighbours, out.data());
          const PlainConvolution want =
              plain_convolution(weight, bias, in, inputs, outputs, rows, area, neighbours, precision);
          double squared_error = 0.0, squared_value = 0.0;
          for (std::size_t i = 0; i < out.size(); ++i) {
            ASSERT_NEAR(out[i], want.out[i], want.bound[i])
                << "precision " << static_cast<int>(precision) << ", " << inputs << " -> " << outputs << ", " << side
                << "x" << side << " x " << positions << ", value " << i;
            squared_error += (out[i] - want.out[i]) * (out[i] - want.out[i]);
            squared_value += want.out[i] * want.out[i];
          }
          EXPECT_LT(std::sqrt(squared_error / squared_value), precision == Precision::kFloat ? 1e-6 : 1e-2)
              << "precision " << static_cast<int>(precision) << ", " << inputs << " -> " << outputs;
          EXPECT_EQ(largest, *std::max_element(out.begin(), out.end()));
        }
  }
}

// int8 scales its inputs to 0..largest: a call with a negative input is computed in float instead.
TEST_P(DirectConvolutionKernels, Int8WithANegativeInputComputesInFloat) {
  if (!int8_available_else_refused()) return;
  constexpr int kSide = 7, kArea = kSide * kSide, kChannels = 32;
  const auto weight = values(9 * kChannels * kChannels, -1.0f, 1.0f, 1);
  const auto bias = values(kChannels, -0.5f, 0.5f, 2);
  auto in = values(kArea * kChannels, 0.0f, 2.0f, 3);
  in[100] = -0.25f;
  const DirectConvolution int8(weight.data(), bias.data(), kChannels, kChannels, Precision::kInt8, GetParam());
  const DirectConvolution exact(weight.data(), bias.data(), kChannels, kChannels, Precision::kFloat, GetParam());
  std::vector<float> got(in.size()), want(in.size());
  int8.run(in.data(), kArea, kArea, DirectConvolution::neighbour_table(kSide), got.data());
  exact.run(in.data(), kArea, kArea, DirectConvolution::neighbour_table(kSide), want.data());
  EXPECT_EQ(got, want);
}

// The largest inputs against the largest weights: every sum of products at its most. AVX2's
// vpmaddubsw saturates a pair of byte products at 32,767, which 8-bit inputs (2 x 255 x 127) would
// pass: the int8 path must come out as float does.
TEST_P(DirectConvolutionKernels, Int8SumsOfTheLargestInputsAndWeightsAreExact) {
  constexpr int kSide = 7, kArea = kSide * kSide, kChannels = 32;
  std::vector<float> weight(9 * kChannels * kChannels), bias(kChannels, 0.0f);
  for (std::size_t i = 0; i < weight.size(); ++i) weight[i] = i % 2 == 0 ? 1.0f : -1.0f;  // output o: sign of o
  const std::span<const int> neighbours = DirectConvolution::neighbour_table(kSide);
  const std::vector<float> in(kArea * kChannels, 2.0f);
  if (!int8_available_else_refused()) return;
  const DirectConvolution int8(weight.data(), bias.data(), kChannels, kChannels, Precision::kInt8, GetParam());
  std::vector<float> out(kArea * kChannels);
  int8.run(in.data(), kArea, kArea, neighbours, out.data());
  for (int cell = 0; cell < kArea; ++cell) {
    int taps = 0;
    for (int tap = 0; tap < 9; ++tap) taps += neighbours[cell * 9 + tap] >= 0;
    for (int o = 0; o < kChannels; ++o)
      ASSERT_NEAR(out[cell * kChannels + o], (o % 2 == 0 ? 2.0f : -2.0f) * taps * kChannels, 1e-3f)
          << "cell " << cell << ", output " << o;
  }
}

// The epilogue as the forward pass uses it: the residual the output itself, a ReLU, a mask that
// zeroes some rows; the largest output returned; and in int8 the largest input given, as the next
// layer is given a previous one's, changes nothing.
TEST_P(DirectConvolutionKernels, TheEpilogueAddsTheResidualInPlaceThenReluThenTheMask) {
  constexpr int kSide = 5, kArea = kSide * kSide, kRows = 2 * kArea, kChannels = 32;
  const auto weight = values(9 * kChannels * kChannels, -1.0f, 1.0f, 1);
  const auto bias = values(kChannels, -1.0f, 2.0f, 2);
  const auto in = values(kRows * kChannels, 0.0f, 1.0f, 3);
  const auto residual = values(in.size(), -8.0f, 8.0f, 4);
  std::vector<float> mask(kRows);
  for (int row = 0; row < kRows; ++row) mask[row] = row % 7 == 3 ? 0.0f : 1.0f;
  const std::span<const int> neighbours = DirectConvolution::neighbour_table(kSide);
  for (const Precision precision : {Precision::kFloat, Precision::kInt8}) {
    if (!DirectConvolution::available(precision, GetParam())) continue;
    const DirectConvolution convolution(weight.data(), bias.data(), kChannels, kChannels, precision, GetParam());
    std::vector<float> plain(in.size()), out = residual;
    convolution.run(in.data(), kRows, kArea, neighbours, plain.data());
    const float largest = convolution.run(in.data(), kRows, kArea, neighbours, out.data(),
                                          {.residual = out.data(), .mask = mask.data(), .relu = true});
    float most = 0.0f;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const float want = std::max(0.0f, plain[i] + residual[i]) * mask[i / kChannels];
      ASSERT_FLOAT_EQ(out[i], want) << "value " << i;
      most = std::max(most, want);
    }
    EXPECT_FLOAT_EQ(largest, most);
    EXPECT_GT(largest, 0.0f);
    std::vector<float> hinted(in.size());
    convolution.run(in.data(), kRows, kArea, neighbours, hinted.data(), {}, *std::max_element(in.begin(), in.end()));
    EXPECT_EQ(hinted, plain);
  }
}

// A 1x1 convolution runs as a 3x3 one through the centre table. A thread keeps what it works out
// from a table by the table's address, so each canvas's two tables are made once and differ: on a
// thread that has just run the full table on the same rows, the centre table still reads the centre
// alone. (When the network held its own copies, a new network's centre table could take a freed
// full table's address and be read as that one: a UAI test failed now and then in CI.)
TEST_P(DirectConvolutionKernels, TheCentreTableReadsTheCentreAloneAfterTheFullTableOnTheSameRows) {
  constexpr int kSide = 5, kArea = kSide * kSide, kRows = 3 * kArea, kChannels = 32;
  EXPECT_EQ(DirectConvolution::neighbour_table(kSide).data(), DirectConvolution::neighbour_table(kSide).data());
  EXPECT_NE(DirectConvolution::neighbour_table(kSide).data(), DirectConvolution::centre_table(kSide).data());
  const auto weight = values(9 * kChannels * kChannels, -1.0f, 1.0f, 1);
  const auto in = values(kRows * kChannels, 0.0f, 1.0f, 2);
  const std::vector<float> bias(kChannels, 0.5f);
  std::vector<float> out(in.size());
  for (const Precision precision : {Precision::kFloat, Precision::kInt8}) {
    if (!DirectConvolution::available(precision, GetParam())) continue;
    const DirectConvolution convolution(weight.data(), bias.data(), kChannels, kChannels, precision, GetParam());
    convolution.run(in.data(), kRows, kArea, DirectConvolution::neighbour_table(kSide), out.data());
    convolution.run(in.data(), kRows, kArea, DirectConvolution::centre_table(kSide), out.data());
    for (int row = 0; row < kRows; ++row)
      for (int o = 0; o < kChannels; ++o) {
        float want = bias[o];
        for (int i = 0; i < kChannels; ++i)
          want += in[row * kChannels + i] * weight[(4 * kChannels + i) * kChannels + o];
        ASSERT_NEAR(out[row * kChannels + o], want, 0.1f) << "row " << row << ", output " << o;
      }
  }
}

}  // namespace
}  // namespace ataxx
