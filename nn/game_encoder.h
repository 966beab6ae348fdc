// What the network's side of the pipeline (batching, inference, training batches) asks of a game:
// its planes, how a position is encoded, where a move sits in the policy, a key for the
// evaluation cache, and for training the symmetries a sample may be seen under and where its
// cells land on the canvas. One specialisation per game of mcts/games.h. Plain C++: no torch here.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "games/ataxx/symmetry.h"
#include "games/registry.h"
#include "nn/encoding.h"
#include "nn/model_info.h"
#include "games/schataxx/encoding.h"

namespace ataxx {

template <typename G>
class GameEncoder;

template <>
class GameEncoder<AtaxxGame> {
 public:
  explicit GameEncoder(BoardSet boards = {}) : boards_(std::move(boards)), encoding_(boards_.encoding()) {}
  NetworkIo io() const { return network_io(kAtaxxName, boards_); }
  const BoardSet& boards() const { return boards_; }
  const Encoding& encoding() const { return encoding_; }
  bool plays(const Position& pos) const { return boards_.contains(pos.board()); }
  std::string plays_what() const { return boards_.names(); }
  // Throws std::invalid_argument for a position the network of `model` does not play.
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
  static int cells(const Position& pos) { return AtaxxGame::cells(pos); }
  // Where cell `square` of pos lands on the canvas when pos is seen under `symmetry`.
  int canvas_cell(int symmetry, const Position& pos, int square) const {
    return encoding_.canvas_cell(pos.board(), pos.board().symmetries[symmetry][square]);
  }

 private:
  BoardSet boards_;
  Encoding encoding_;
};

template <>
class GameEncoder<SchataxxGame> {
 public:
  explicit GameEncoder(const BoardSet& = {}) {}
  static NetworkIo io() { return kSchataxxIo; }
  static bool plays(const schataxx::Position&) { return true; }  // every variant, one board
  static std::string plays_what() { return std::string(kSchataxxName); }
  static void check(const schataxx::Position&, const std::string&) {}
  static void encode(const schataxx::Position& pos, std::span<float> planes) { schataxx::encode(pos, planes); }
  static int policy_index(const schataxx::Position&, schataxx::Move move) { return schataxx::policy_index(move); }
  static std::uint64_t key(const schataxx::Position& pos) { return schataxx::encoding_key(pos); }

  static SymmetryList augmentations(const schataxx::Position&) {
    SymmetryList all;
    for (int s = 0; s < schataxx::kSymmetries; ++s) all.symmetries[all.count++] = static_cast<std::uint8_t>(s);
    return all;
  }
  static schataxx::Position transformed(int symmetry, const schataxx::Position& pos) { return pos.transformed(symmetry); }
  static schataxx::Move transformed(int symmetry, const schataxx::Position&, schataxx::Move move) {
    return schataxx::transform_move(symmetry, move);
  }
  static int cells(const schataxx::Position& pos) { return SchataxxGame::cells(pos); }
  static int canvas_cell(int symmetry, const schataxx::Position&, int square) {
    return schataxx::transform_square(symmetry, square);
  }
};

}  // namespace ataxx
