// What the network's side of the pipeline (batching, inference, training batches) asks of a game:
// its planes, how a position is encoded, where a move sits in the policy, and a key for the
// evaluation cache. One specialisation per game of mcts/games.h. Plain C++: no torch here.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "mcts/games.h"
#include "nn/encoding.h"
#include "nn/model_info.h"
#include "schataxx/encoding.h"

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
  // Throws std::invalid_argument for a position the network of `model` does not play.
  void check(const Position& pos, const std::string& model) const {
    if (!boards_.contains(pos.board()))
      throw std::invalid_argument("model " + model + " was trained on " + boards_.names() + " and does not play " +
                                  std::string(pos.board().name));
  }
  void encode(const Position& pos, std::span<float> planes) const { encoding_.encode(pos, planes); }
  int policy_index(const Position& pos, Move move) const { return encoding_.policy_index(pos.board(), move); }
  static std::uint64_t key(const Position& pos) { return encoding_key(pos); }

 private:
  BoardSet boards_;
  Encoding encoding_;
};

template <>
class GameEncoder<SchataxxGame> {
 public:
  explicit GameEncoder(const BoardSet& = {}) {}
  static NetworkIo io() { return kSchataxxIo; }
  static void check(const schataxx::Position&, const std::string&) {}  // every variant, one board
  static void encode(const schataxx::Position& pos, std::span<float> planes) { schataxx::encode(pos, planes); }
  static int policy_index(const schataxx::Position&, schataxx::Move move) { return schataxx::policy_index(move); }
  static std::uint64_t key(const schataxx::Position& pos) { return schataxx::encoding_key(pos); }
};

}  // namespace ataxx
