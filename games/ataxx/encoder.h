// Ataxx as the network sees it (the contract's Encoder, games/game_type.h): the boards a network
// plays, on the smallest canvas that holds them all.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "games/ataxx/encoding.h"
#include "games/ataxx/symmetry.h"
#include "games/core/network_io.h"

namespace ataxx {

class AtaxxEncoder {
 public:
  explicit AtaxxEncoder(BoardSet boards = {}) : boards_(std::move(boards)), encoding_(boards_.encoding()) {}
  NetworkIo io() const { return {kInputPlanes, kMaskPlane, kMoveTypes, encoding_.canvas()}; }
  const BoardSet& boards() const { return boards_; }
  const Encoding& encoding() const { return encoding_; }
  bool plays(const Position& pos) const { return boards_.contains(pos.board()); }
  std::string plays_what() const { return boards_.names(); }
  void check(const Position& pos, const std::string& model) const {
    if (!plays(pos))
      throw std::invalid_argument("model " + model + " was trained on " + boards_.names() + " and does not play " +
                                  std::string(pos.board().name));
  }
  void encode(const Position& pos, std::span<float> planes) const { encoding_.encode(pos, planes); }
  int policy_index(const Position& pos, Move move) const { return encoding_.policy_index(pos.board(), move); }
  static std::uint64_t key(const Position& pos) { return encoding_key(pos); }

  static SymmetryList augmentations(const Position& pos) { return augmentation_symmetries(pos); }
  static Position transformed(int symmetry, const Position& pos) { return transform_position(symmetry, pos); }
  static Move transformed(int symmetry, const Position& pos, Move move) {
    return transform_move(pos.board(), symmetry, move);
  }
  int canvas_cell(int symmetry, const Position& pos, int square) const {
    return encoding_.canvas_cell(pos.board(), pos.board().symmetries[symmetry][square]);
  }

 private:
  BoardSet boards_;
  Encoding encoding_;
};

}  // namespace ataxx
