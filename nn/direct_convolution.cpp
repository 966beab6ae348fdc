#include "nn/direct_convolution.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#if defined(__AVX512BF16__) || defined(__AVX512VNNI__) || defined(__AVX2__)
// GCC 12 warns of the intrinsics' own _mm512_undefined_* operands (its bug 105593, fixed in 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

namespace ataxx {
namespace {

constexpr int kTaps = 9;

#if defined(__AVX512VNNI__) || (defined(__AVX2__) && defined(__FMA__) && defined(__AVXVNNI__))
#define ATAXX_INT8 1
// vpdpbusd sums four products of an unsigned and a signed byte in 32 bits: inputs may take 0..255.
constexpr int kInt8InputMax = 255;
#elif defined(__AVX2__) && defined(__FMA__)
#define ATAXX_INT8 1
// AVX2's vpmaddubsw adds two products of an unsigned and a signed byte in 16 bits, saturating:
// inputs up to 127 keep the sum of two within it (2 x 127 x 127 < 32,767), as Stockfish's NNUE does.
constexpr int kInt8InputMax = 127;
#endif

// The float path's lane: the widest vector register the build's processor has, through GCC's and
// Clang's vector extension (a zmm of 16 floats with AVX-512, a ymm of 8 with AVX, else an xmm of
// 4), and rows of cells in a block as many as keep a block's sums in registers (32 zmm, 16 ymm or
// xmm): wider lanes than the registers, or more sums than fit, put the sums on the stack (64-byte
// lanes on an AVX2 processor ran 30 times slower). Rows are loaded and stored through casts, not
// memcpy: GCC kept sums whose address memcpy took in memory, 3x slower.
#if defined(__AVX512F__)
constexpr int kFloatLaneWidth = 16;
template <int kOut>
constexpr int kFloatBlock = kOut == 32 ? 8 : 4;
#elif defined(__AVX__)
constexpr int kFloatLaneWidth = 8;
template <int kOut>
constexpr int kFloatBlock = kOut == 32 ? 3 : 1;
#else
constexpr int kFloatLaneWidth = 4;
template <int kOut>
constexpr int kFloatBlock = 1;
#endif
using FloatLane = float __attribute__((vector_size(4 * kFloatLaneWidth)));
using UnalignedFloatLane = float __attribute__((vector_size(4 * kFloatLaneWidth), aligned(4)));

// The largest of a lane's values.
float largest_in(FloatLane lane) {
  float largest = lane[0];
  for (int i = 1; i < kFloatLaneWidth; ++i) largest = std::max(largest, lane[i]);
  return largest;
}

constexpr FloatLane kNoValues = FloatLane{} - std::numeric_limits<float>::infinity();

// A block's sums (`count` rows of kOut floats) through the epilogue to out's rows `rows`. Returns
// `most` with each lane's largest value: lanes are reduced once a call, not once a block (that
// reduction had cost as much as the rest of the epilogue).
template <int kOut>
FloatLane finish_block(const float* sums, const int* rows, int count, const ConvolutionEpilogue& epilogue, float* out,
                       FloatLane most) {
  constexpr int kLanes = kOut / kFloatLaneWidth;
  for (int b = 0; b < count; ++b) {
    const auto row = static_cast<std::size_t>(rows[b]);
    const auto* sum = reinterpret_cast<const UnalignedFloatLane*>(sums + b * kOut);
    const auto* residual =
        epilogue.residual ? reinterpret_cast<const UnalignedFloatLane*>(epilogue.residual + row * kOut) : nullptr;
    auto* to = reinterpret_cast<UnalignedFloatLane*>(out + row * kOut);
    const float mask = epilogue.mask ? epilogue.mask[row] : 1.0f;
    for (int l = 0; l < kLanes; ++l) {
      FloatLane value = sum[l];
      if (residual) value += residual[l];
      if (epilogue.relu) value = value > 0.0f ? value : 0.0f;
      value *= mask;
      most = value > most ? value : most;
      to[l] = value;
    }
  }
  return most;
}

// How a call's rows go through a kernel of kBlock rows a block. Rows are taken in order of the taps
// at which they read off the canvas (their cell's place on it), so that a block's rows mostly share
// them: a block reads only the taps some row of it reads on the canvas (on 7x7, 80 of the 441
// taps read zeros; at batch 8 the blocks skip all of them). For each block and each tap it reads,
// the row each of its rows reads: a neighbour's, or `rows` (a row of zeros after the inputs) where
// that row's tap is off the canvas. A short last block repeats its last row.
template <int kBlock>
struct ConvolutionPlan {
  struct Block {
    int count = 0;  // rows it stores
    int taps = 0;   // taps it reads
    std::array<int, kTaps> tap{};
    std::array<int, kBlock> row{};  // the rows it computes
  };
  std::vector<Block> blocks;
  std::vector<int> reads;  // [block][tap read][row of the block], kTaps tap slots a block
};

// The plan for `rows` rows of positions of `area` cells.
template <int kBlock>
ConvolutionPlan<kBlock> make_plan(int rows, int area, std::span<const int> neighbours) {
  // Each cell's taps on the canvas, and the cells grouped by them (most first, in order within).
  std::vector<int> cell_taps(area, 0), cells(area);
  for (int cell = 0; cell < area; ++cell)
    for (int tap = 0; tap < kTaps; ++tap) cell_taps[cell] |= (neighbours[cell * kTaps + tap] >= 0) << tap;
  std::iota(cells.begin(), cells.end(), 0);
  std::stable_sort(cells.begin(), cells.end(), [&](int a, int b) { return cell_taps[a] > cell_taps[b]; });
  // The rows group by group, each group position by position: each row's position start and cell.
  std::vector<std::pair<int, int>> order;
  order.reserve(rows);
  for (auto group = cells.begin(); group != cells.end();) {
    const auto end = std::find_if(group, cells.end(), [&](int cell) { return cell_taps[cell] != cell_taps[*group]; });
    for (int position = 0; position < rows; position += area)
      for (auto cell = group; cell != end; ++cell) order.emplace_back(position, *cell);
    group = end;
  }
  ConvolutionPlan<kBlock> plan;
  plan.reads.resize((static_cast<std::size_t>(rows) + kBlock - 1) / kBlock * kTaps * kBlock);
  for (int first = 0; first < rows; first += kBlock) {
    typename ConvolutionPlan<kBlock>::Block block;
    block.count = std::min(kBlock, rows - first);
    std::array<std::pair<int, int>, kBlock> rows_of;
    int taps = 0;
    for (int b = 0; b < kBlock; ++b) {
      rows_of[b] = order[first + std::min(b, block.count - 1)];
      block.row[b] = rows_of[b].first + rows_of[b].second;
      taps |= cell_taps[rows_of[b].second];
    }
    int* reads = plan.reads.data() + plan.blocks.size() * kTaps * kBlock;
    for (int tap = 0; tap < kTaps; ++tap) {
      if (!(taps >> tap & 1)) continue;
      for (int b = 0; b < kBlock; ++b) {
        const auto [position, cell] = rows_of[b];
        const int read = neighbours[cell * kTaps + tap];
        reads[block.taps * kBlock + b] = read < 0 ? rows : position + read;
      }
      block.tap[block.taps++] = tap;
    }
    plan.blocks.push_back(block);
  }
  return plan;
}

// The plan for a call's rows, kept for the thread's next calls with the same rows (every layer of
// a forward; the last few batch sizes, which a search's batches keep changing between): worked
// out per block and tap, its division, branches and 64-bit multiplies cost a sixth of the
// convolutions' time.
template <int kBlock>
const ConvolutionPlan<kBlock>& plan_for(int rows, int area, std::span<const int> neighbours) {
  using Key = std::tuple<int, int, const int*>;
  constexpr std::size_t kKept = 8;
  thread_local std::vector<std::pair<Key, ConvolutionPlan<kBlock>>> plans;  // the newest last
  const Key key{rows, area, neighbours.data()};
  const auto kept = std::find_if(plans.begin(), plans.end(), [&](const auto& plan) { return plan.first == key; });
  if (kept != plans.end()) return kept->second;
  if (plans.size() == kKept) plans.erase(plans.begin());
  return plans.emplace_back(key, make_plan<kBlock>(rows, area, neighbours)).second;
}

template <int kOut>
float run_float(const float* weight, const float* bias_row, int inputs, const float* in, int rows, int area,
                std::span<const int> neighbours, const ConvolutionEpilogue& epilogue, float* out) {
  constexpr int kLanes = kOut / kFloatLaneWidth, kBlock = kFloatBlock<kOut>;
  thread_local std::vector<float> zeros;
  zeros.assign(inputs, 0.0f);
  const auto* bias = reinterpret_cast<const UnalignedFloatLane*>(bias_row);
  const ConvolutionPlan<kBlock>& plan = plan_for<kBlock>(rows, area, neighbours);
  const int* reads = plan.reads.data();
  FloatLane most = kNoValues;
  for (const auto& block : plan.blocks) {
    FloatLane sums[kBlock][kLanes];
    for (int b = 0; b < kBlock; ++b)
      for (int l = 0; l < kLanes; ++l) sums[b][l] = bias[l];
    for (int t = 0; t < block.taps; ++t) {
      const float* source[kBlock];
      for (int b = 0; b < kBlock; ++b) {
        const int row = reads[t * kBlock + b];
        source[b] = row == rows ? zeros.data() : in + static_cast<std::size_t>(row) * inputs;
      }
      const auto* w =
          reinterpret_cast<const UnalignedFloatLane*>(weight + static_cast<std::size_t>(block.tap[t]) * inputs * kOut);
      for (int i = 0; i < inputs; ++i, w += kLanes)
#pragma GCC unroll 16
        for (int b = 0; b < kBlock; ++b)
#pragma GCC unroll 8
          for (int l = 0; l < kLanes; ++l) sums[b][l] += source[b][i] * w[l];
    }
    reads += kTaps * kBlock;
    alignas(64) float sums_out[kBlock * kOut];
    for (int b = 0; b < kBlock; ++b)
      for (int l = 0; l < kLanes; ++l) reinterpret_cast<FloatLane*>(sums_out + b * kOut)[l] = sums[b][l];
    most = finish_block<kOut>(sums_out, block.row.data(), block.count, epilogue, out, most);
  }
  return largest_in(most);
}

// Round to nearest even, as the hardware's conversions do (no NaNs reach here).
std::uint16_t to_bf16(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return static_cast<std::uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

std::uint32_t bf16_pair(float low, float high) { return to_bf16(low) | (std::uint32_t{to_bf16(high)} << 16); }

#if defined(__AVX512BF16__) || defined(__AVX512VNNI__)
// The AVX-512 formats' words: sixteen 32-bit lanes, one zmm; blocks of 8 cells for 32 outputs and
// 4 for 64 fill the 32 registers with sums.
struct Avx512Words {
  using Word = __m512i;
  static constexpr int kWidth = 16, kBlockOf32 = 8, kBlockOf64 = 4;
  static Word load(const std::uint32_t* words) { return _mm512_loadu_si512(words); }
  static Word broadcast(std::uint32_t word) { return _mm512_set1_epi32(static_cast<int>(word)); }
};
#endif

#if defined(__AVX512BF16__)
// Rows of `inputs` floats -> rows of (inputs + 1) / 2 words, each two bfloat16 inputs (the lower
// first), a missing last one zero. Rows of 32 or 64 inputs in conversions of 32; others one by one.
void pack_bf16(const float* in, int rows, int inputs, std::uint32_t* out) {
  const int pair_count = (inputs + 1) / 2;
  if (inputs % 32 == 0) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(rows) * inputs; i += 32)
      _mm512_storeu_si512(out + i / 2, (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(in + i + 16), _mm512_loadu_ps(in + i)));
    return;
  }
  for (int row = 0; row < rows; ++row, in += inputs)
    for (int k = 0; k < pair_count; ++k) *out++ = bf16_pair(in[2 * k], 2 * k + 1 < inputs ? in[2 * k + 1] : 0.0f);
}

// bfloat16: each word two inputs (pairs), the sums float from the bias on.
struct Bf16Format : Avx512Words {
  using Sum = __m512;
  static Sum start(const float* bias, const float*) { return _mm512_loadu_ps(bias); }
  static Sum add(Sum sum, Word x, Word w) { return _mm512_dpbf16_ps(sum, (__m512bh)x, (__m512bh)w); }
  static void store(float* out, Sum sum, const float*, const float*) { _mm512_storeu_ps(out, sum); }
};
#endif

#if defined(ATAXX_INT8)
// The least and largest of `count` floats, `count` a multiple of 16.
std::pair<float, float> range_of(const float* in, std::size_t count) {
#if defined(__AVX512F__)
  __m512 lows = _mm512_setzero_ps(), highs = _mm512_setzero_ps();
  for (std::size_t i = 0; i < count; i += 16) {
    const __m512 x = _mm512_loadu_ps(in + i);
    lows = _mm512_min_ps(lows, x);
    highs = _mm512_max_ps(highs, x);
  }
  return {_mm512_reduce_min_ps(lows), _mm512_reduce_max_ps(highs)};
#else
  __m256 lows = _mm256_setzero_ps(), highs = _mm256_setzero_ps();
  for (std::size_t i = 0; i < count; i += 8) {
    const __m256 x = _mm256_loadu_ps(in + i);
    lows = _mm256_min_ps(lows, x);
    highs = _mm256_max_ps(highs, x);
  }
  alignas(32) float low[8], high[8];
  _mm256_store_ps(low, lows);
  _mm256_store_ps(high, highs);
  return {*std::min_element(low, low + 8), *std::max_element(high, high + 8)};
#endif
}

// 16 floats times `times`, rounded, as 16 bytes (each at most kInt8InputMax).
void store_u8(const float* in, float times, std::uint32_t* out) {
#if defined(__AVX512F__)
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(in), _mm512_set1_ps(times)))));
#else
  const __m256i low = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(in), _mm256_set1_ps(times)));
  const __m256i high = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(in + 8), _mm256_set1_ps(times)));
  // Packing works within 128-bit halves: words 0-3 8-11 4-7 12-15, put back in order.
  const __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(low, high), 0b11011000);
  const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), bytes);
#endif
}

// Rows of `inputs` floats, none negative, -> rows of (inputs + 3) / 4 words, each four inputs as
// unsigned bytes (the first lowest), the largest input kInt8InputMax. Returns the input that 1
// stands for, or -1 where an input is negative. largest: the largest input where known (none then
// negative), else -1.
float pack_u8(const float* in, int rows, int inputs, float largest, std::uint32_t* out) {
  const std::size_t count = static_cast<std::size_t>(rows) * inputs;
  const bool whole_lanes = inputs % 16 == 0;
  float low = 0.0f, high = 0.0f;
  if (largest >= 0.0f) {
    high = largest;
  } else if (whole_lanes) {
    std::tie(low, high) = range_of(in, count);
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      low = std::min(low, in[i]);
      high = std::max(high, in[i]);
    }
  }
  if (low < 0.0f) return -1.0f;
  const float scale = high > 0.0f ? high / kInt8InputMax : 1.0f, inverse = 1.0f / scale;
  const int quad_count = (inputs + 3) / 4;
  if (whole_lanes) {
    for (std::size_t i = 0; i < count; i += 16) store_u8(in + i, inverse, out + i / 4);
    return scale;
  }
  for (int row = 0; row < rows; ++row, in += inputs)
    for (int k = 0; k < quad_count; ++k) {
      std::uint32_t word = 0;
      for (int j = 0; j < 4 && 4 * k + j < inputs; ++j)
        word |= static_cast<std::uint32_t>(std::nearbyint(in[4 * k + j] * inverse)) << (8 * j);
      *out++ = word;
    }
  return scale;
}
#endif

// int8: each word four unsigned inputs (quads) against four signed weights, the sums int32 from
// zero, then scaled (per output, what a sum's 1 stands for) and the bias added.
#if defined(__AVX512VNNI__)
struct Int8Format : Avx512Words {
  using Sum = __m512i;
  static Sum start(const float*, const float*) { return _mm512_setzero_si512(); }
  static Sum add(Sum sum, Word x, Word w) { return _mm512_dpbusd_epi32(sum, x, w); }
  static void store(float* out, Sum sum, const float* bias, const float* scale) {
    _mm512_storeu_ps(out, _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), _mm512_loadu_ps(scale), _mm512_loadu_ps(bias)));
  }
};
#elif defined(__AVX2__) && defined(__FMA__)
// AVX2 alone has no dot product of quads: pairs of products in 16 bits (vpmaddubsw), then pairs of
// those in 32 (vpmaddwd by ones); AVX-VNNI (Alder Lake on, Zen 5) has AVX-512's vpdpbusd in a ymm.
// Eight lanes, one ymm; blocks of 3 cells for 32 outputs (12 sums; `bench nn --int8` ran 2 and 4
// about 15 % slower, with AVX-VNNI a third slower) and 1 for 64 keep the 16 registers.
struct Int8Format {
  using Word = __m256i;
  using Sum = __m256i;
  static constexpr int kWidth = 8, kBlockOf32 = 3, kBlockOf64 = 1;
  static Word load(const std::uint32_t* words) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words)); }
  static Word broadcast(std::uint32_t word) { return _mm256_set1_epi32(static_cast<int>(word)); }
  static Sum start(const float*, const float*) { return _mm256_setzero_si256(); }
  static Sum add(Sum sum, Word x, Word w) {
#if defined(__AVXVNNI__)
    return _mm256_dpbusd_avx_epi32(sum, x, w);
#else
    return _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
#endif
  }
  static void store(float* out, Sum sum, const float* bias, const float* scale) {
    _mm256_storeu_ps(out, _mm256_fmadd_ps(_mm256_cvtepi32_ps(sum), _mm256_loadu_ps(scale), _mm256_loadu_ps(bias)));
  }
};
#endif

#if defined(__AVX512BF16__) || defined(ATAXX_INT8)
// weights: [tap][input word][output] words; in: rows of `words` words, each two bfloat16 or four
// int8 inputs as Format reads them; scale: per output, for Format::store.
template <typename Format, int kOut, int kBlock>
float run_packed(const std::uint32_t* weights, const float* scale, const float* bias_row, int words,
                 const std::uint32_t* in, int rows, int area, std::span<const int> neighbours,
                 const ConvolutionEpilogue& epilogue, float* out) {
  constexpr int kWidth = Format::kWidth, kLanes = kOut / kWidth;
  const ConvolutionPlan<kBlock>& plan = plan_for<kBlock>(rows, area, neighbours);
  const int* reads = plan.reads.data();
  FloatLane most = kNoValues;
  for (const auto& block : plan.blocks) {
    typename Format::Sum sums[kBlock][kLanes];
    for (int b = 0; b < kBlock; ++b)
      for (int l = 0; l < kLanes; ++l) sums[b][l] = Format::start(bias_row + l * kWidth, scale + l * kWidth);
    for (int t = 0; t < block.taps; ++t) {
      const std::uint32_t* source[kBlock];
      for (int b = 0; b < kBlock; ++b) source[b] = in + static_cast<std::size_t>(reads[t * kBlock + b]) * words;
      const std::uint32_t* w = weights + static_cast<std::size_t>(block.tap[t]) * words * kOut;
      for (int k = 0; k < words; ++k, w += kOut) {
        typename Format::Word lane_weights[kLanes];
        for (int l = 0; l < kLanes; ++l) lane_weights[l] = Format::load(w + l * kWidth);
#pragma GCC unroll 16
        for (int b = 0; b < kBlock; ++b) {
          const typename Format::Word x = Format::broadcast(source[b][k]);
#pragma GCC unroll 8
          for (int l = 0; l < kLanes; ++l) sums[b][l] = Format::add(sums[b][l], x, lane_weights[l]);
        }
      }
    }
    reads += kTaps * kBlock;
    alignas(64) float sums_out[kBlock * kOut];
    for (int b = 0; b < block.count; ++b)
      for (int l = 0; l < kLanes; ++l)
        Format::store(sums_out + b * kOut + l * kWidth, sums[b][l], bias_row + l * kWidth, scale + l * kWidth);
    most = finish_block<kOut>(sums_out, block.row.data(), block.count, epilogue, out, most);
  }
  return largest_in(most);
}

template <typename Format>
float run_packed(int outputs, const std::uint32_t* weights, const float* scale, const float* bias_row, int words,
                 const std::uint32_t* in, int rows, int area, std::span<const int> neighbours,
                 const ConvolutionEpilogue& epilogue, float* out) {
  if (outputs == 32)
    return run_packed<Format, 32, Format::kBlockOf32>(weights, scale, bias_row, words, in, rows, area, neighbours,
                                                      epilogue, out);
  return run_packed<Format, 64, Format::kBlockOf64>(weights, scale, bias_row, words, in, rows, area, neighbours,
                                                    epilogue, out);
}
#endif

}  // namespace

namespace {

// For each cell of a square canvas and each tap (dy, then dx), the cell it reads, or -1 off the
// canvas; with `centre_only`, every tap but the centre off the canvas.
std::vector<int> make_table(int canvas, bool centre_only) {
  std::vector<int> neighbours;
  neighbours.reserve(static_cast<std::size_t>(canvas) * canvas * kTaps);
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

bool DirectConvolution::available(Precision precision) {
  switch (precision) {
    case Precision::kBf16:
#if defined(__AVX512BF16__)
      return true;
#else
      return false;
#endif
    case Precision::kInt8:
#if defined(ATAXX_INT8)
      return true;
#else
      return false;
#endif
    case Precision::kFloat:
      break;
  }
  return true;
}

DirectConvolution::DirectConvolution(const float* weight, const float* bias, int inputs, int outputs,
                                     Precision precision)
    : inputs_(inputs),
      outputs_(outputs),
      precision_(precision),
      weight_(weight, weight + kTaps * inputs * outputs),
      bias_(bias, bias + outputs) {
  if (!supports(outputs))
    throw std::invalid_argument("direct convolution: " + std::to_string(outputs) + " outputs (32 or 64 only)");
  if (!available(precision))
    throw std::invalid_argument(std::string("direct convolution: this build's processor has no ") +
                                (precision == Precision::kBf16 ? "AVX512-BF16" : "AVX2 or AVX512-VNNI"));
  const auto at = [&](int tap, int i, int o) { return i < inputs ? weight[(tap * inputs + i) * outputs + o] : 0.0f; };
  if (precision == Precision::kBf16) {
    const int pair_count = (inputs + 1) / 2;
    packed_weight_.resize(static_cast<std::size_t>(kTaps) * pair_count * outputs);
    for (int tap = 0; tap < kTaps; ++tap)
      for (int k = 0; k < pair_count; ++k)
        for (int o = 0; o < outputs; ++o)
          packed_weight_[(static_cast<std::size_t>(tap) * pair_count + k) * outputs + o] =
              bf16_pair(at(tap, 2 * k, o), at(tap, 2 * k + 1, o));
  }
  if (precision == Precision::kInt8) {
    const int quad_count = (inputs + 3) / 4;
    weight_scale_.assign(outputs, 0.0f);
    for (int o = 0; o < outputs; ++o) {
      for (int tap = 0; tap < kTaps; ++tap)
        for (int i = 0; i < inputs; ++i) weight_scale_[o] = std::max(weight_scale_[o], std::abs(at(tap, i, o)));
      weight_scale_[o] = weight_scale_[o] > 0.0f ? weight_scale_[o] / 127.0f : 1.0f;
    }
    packed_weight_.resize(static_cast<std::size_t>(kTaps) * quad_count * outputs);
    for (int tap = 0; tap < kTaps; ++tap)
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
                             const ConvolutionEpilogue& epilogue, [[maybe_unused]] float largest_input) const {
#if defined(__AVX512BF16__)
  if (precision_ == Precision::kBf16) {
    const int pair_count = (inputs_ + 1) / 2;
    thread_local std::vector<std::uint32_t> packed;
    packed.resize(static_cast<std::size_t>(rows + 1) * pair_count);
    pack_bf16(in, rows, inputs_, packed.data());
    std::fill(packed.end() - pair_count, packed.end(), 0);  // the row of zeros off the canvas reads
    // bfloat16 has no scale: the bias stands in for Format::finish, which ignores it.
    return run_packed<Bf16Format>(outputs_, packed_weight_.data(), bias_.data(), bias_.data(), pair_count,
                                  packed.data(), rows, area, neighbours, epilogue, out);
  }
#endif
#if defined(ATAXX_INT8)
  if (precision_ == Precision::kInt8) {
    const int quad_count = (inputs_ + 3) / 4;
    thread_local std::vector<std::uint32_t> packed;
    packed.resize(static_cast<std::size_t>(rows + 1) * quad_count);
    const float input_scale = pack_u8(in, rows, inputs_, largest_input, packed.data());
    std::fill(packed.end() - quad_count, packed.end(), 0);  // the row of zeros off the canvas reads
    if (input_scale >= 0.0f) {
      thread_local std::vector<float> scale;
      scale.resize(outputs_);
      for (int o = 0; o < outputs_; ++o) scale[o] = weight_scale_[o] * input_scale;
      return run_packed<Int8Format>(outputs_, packed_weight_.data(), scale.data(), bias_.data(), quad_count,
                                    packed.data(), rows, area, neighbours, epilogue, out);
    }
  }
#endif
  if (outputs_ == 32)
    return run_float<32>(weight_.data(), bias_.data(), inputs_, in, rows, area, neighbours, epilogue, out);
  return run_float<64>(weight_.data(), bias_.data(), inputs_, in, rows, area, neighbours, epilogue, out);
}

}  // namespace ataxx
