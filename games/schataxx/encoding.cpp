#include "games/schataxx/encoding.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace ataxx::schataxx {
namespace {

struct Offset {
  int files, ranks;
};

// The 64 offsets: the 8 queen lines, distances 1..7, then the knight's 8.
constexpr std::array<Offset, kOffsets> kOffsetList = [] {
  std::array<Offset, kOffsets> list{};
  int next = 0;
  constexpr int lines[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  for (const auto& line : lines)
    for (int distance = 1; distance <= 7; ++distance) list[next++] = {line[0] * distance, line[1] * distance};
  constexpr int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  for (const auto& jump : knight) list[next++] = {jump[0], jump[1]};
  return list;
}();

// The offset's index by (files + 7, ranks + 7); -1 for a step no man makes.
constexpr std::array<std::array<std::int8_t, 15>, 15> kOffsetIndex = [] {
  std::array<std::array<std::int8_t, 15>, 15> index{};
  for (auto& row : index) row.fill(-1);
  for (int i = 0; i < kOffsets; ++i) index[kOffsetList[i].files + 7][kOffsetList[i].ranks + 7] = static_cast<std::int8_t>(i);
  return index;
}();

}  // namespace

int policy_index(Move move) {
  if (move.is_pass()) return kPassIndex;
  if (move.is_drop()) return kDropBase + stock_index(move.drop) * 64 + move.to;
  const int files = (move.to & 7) - (move.from & 7), ranks = (move.to >> 3) - (move.from >> 3);
  const int offset = move.from < 64 && move.to < 64 ? kOffsetIndex[files + 7][ranks + 7] : -1;
  if (offset < 0) throw std::invalid_argument("policy_index: " + to_string(move) + " is no man's move");
  return offset * 64 + move.from;
}

Move move_at(int index) {
  if (index < 0 || index >= kPassIndex) return Move::pass();
  if (index >= kDropBase) return Move::drop_of(stock_type((index - kDropBase) / 64), (index - kDropBase) % 64);
  const int from = index % 64;
  const Offset offset = kOffsetList[index / 64];
  const int file = (from & 7) + offset.files, rank = (from >> 3) + offset.ranks;
  if (file < 0 || file > 7 || rank < 0 || rank > 7) return Move::pass();
  return Move::step(from, rank * 8 + file);
}

void encode(const Position& pos, std::span<float> planes) {
  if (planes.size() != static_cast<std::size_t>(kInputSize))
    throw std::invalid_argument("schataxx encode: " + std::to_string(planes.size()) + " floats given for " +
                                std::to_string(kInputSize) + " inputs");
  std::fill(planes.begin(), planes.end(), 0.0f);
  auto fill_plane = [&](int plane, float value) { std::fill_n(planes.begin() + plane * 64, 64, value); };
  const Color us = pos.side_to_move();
  int plane = 0;
  for (const Color side : {us, ~us})
    for (int t = 0; t < kPieceTypes; ++t, ++plane)
      for (Bitboard b = pos.men(side) & pos.men(static_cast<PieceType>(t)); b;) planes[plane * 64 + pop_lsb(b)] = 1.0f;
  for (Bitboard b = ~pos.occupied(); b;) planes[plane * 64 + pop_lsb(b)] = 1.0f;
  ++plane;
  for (const Color side : {us, ~us})
    for (int i = 0; i < kStockTypes; ++i, ++plane) {
      const PieceType type = stock_type(i);
      const bool unlimited = pos.variant() == Variant::kUnlimited && type == PieceType::kSoldier;
      fill_plane(plane, unlimited ? 1.0f : static_cast<float>(pos.stock(side, type)) / kSetCount[static_cast<int>(type)]);
    }
  fill_plane(plane++, static_cast<float>(std::min(pos.plies_since_drop(), 100)) / 100);
  fill_plane(plane++, pos.variant() == Variant::kBalanced && pos.ply() < 5 ? 1.0f : 0.0f);
  fill_plane(plane++, pos.variant() == Variant::kUnlimited ? 1.0f : 0.0f);
  // What decides the game, computed rather than learnt (as KataGo gives its net liberties): each
  // side's territory, and each side's area over the board.
  for (const Color side : {us, ~us}) {
    for (Bitboard b = pos.territory(side); b;) planes[plane * 64 + pop_lsb(b)] = 1.0f;
    ++plane;
  }
  for (const Color side : {us, ~us}) fill_plane(plane++, static_cast<float>(pos.area(side)) / 64);
  fill_plane(plane++, 1.0f);
}

std::uint64_t encoding_key(const Position& pos) {
  std::uint64_t state = static_cast<std::uint64_t>(std::min(pos.plies_since_drop(), 100)) |
                        std::uint64_t{pos.variant() == Variant::kBalanced && pos.ply() < 5} << 8 |
                        std::uint64_t{static_cast<std::uint8_t>(pos.variant())} << 9;
  return pos.hash() ^ zobrist::splitmix64(state);
}

}  // namespace ataxx::schataxx
