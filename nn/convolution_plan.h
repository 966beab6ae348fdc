// Which rows a direct convolution's blocks of cells read, worked out once per batch shape: plain
// C++ that every processor's kernels (nn/convolution_kernels.inc) share.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace ataxx::convolution {

constexpr int kTaps = 9;

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

}  // namespace ataxx::convolution
