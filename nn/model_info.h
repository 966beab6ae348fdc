// What model files say about themselves, as plain C++ for code outside nn/.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "games/ataxx/encoding.h"
#include "games/registry.h"
#include "nn/game_encoder.h"

namespace ataxx {

struct ModelShape {
  int blocks = 6;
  int channels = 64;
};
// Channels of the policy and value heads' first convolutions, whatever the shape.
inline constexpr int kHeadChannels = 32;

struct ModelInfo {
  std::string game{Games::First::kName};
  ModelShape shape;
  int encoding_version = 0;
  BoardSet boards;           // of a game with boards (GameType's kHasBoards)
  RuleSettings rules;        // the game's end-of-game numbers (GameType's settings_of)
  std::int64_t step = 0;     // training steps behind these weights
  NetworkIo io{};            // its network's planes: filled when its file is read (NetworkIoOf)
  std::string name;          // e.g. "gen-0007"
  std::string parent;        // the model it was trained from
};

struct CheckpointInfo {
  std::string game{Games::First::kName};
  ModelShape shape;
  BoardSet boards;
  RuleSettings rules;        // the run's, copied into play files made by export
  std::int64_t step = 0;
  NetworkIo io{};            // as ModelInfo's
  std::string optimizer;     // "sgd" or "adamw"
  std::string config_yaml;   // the run's effective configuration
};

class ModelFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A model file whose bytes are wrong: cut short, damaged, or no model file at all.
class DamagedModelFileError : public ModelFileError {
 public:
  using ModelFileError::ModelFileError;
};

// The planes of a network of `game` that plays `boards`, as the readers of model files work them
// out (and so refuse the file of a game the reader does not play): those of a game of
// games/registry.h (registered_network_io, the readers' default), or of the one game a caller plays
// (network_io_of<G>, a game of its own included). Each throws std::invalid_argument for another game.
using NetworkIoOf = NetworkIo (*)(std::string_view game, const BoardSet& boards);
inline NetworkIo registered_network_io(std::string_view game, const BoardSet& boards) {
  if (!Games::has_game_named(game))
    throw std::invalid_argument("is a network of " + std::string(game) + ", a game this program does not play (" +
                                Games::game_names() + ")");
  return network_io(game, boards);
}
template <GameType G>
NetworkIo network_io_of(std::string_view game, const BoardSet& boards) {
  if (game != G::kName)
    throw std::invalid_argument("is a network of " + std::string(game) + ", not of " + std::string(G::kName));
  return make_encoder<G>(boards).io();
}

// Model files through LibTorch (defined in nn/model_file.cpp, so only in programs that link it),
// declared here for code that need not include torch.
// A checkpoint's header: its shape, step, run config.
CheckpointInfo read_checkpoint_info(const std::string& path, NetworkIoOf io_of = registered_network_io);
// Makes a play file from a checkpoint (`ataxx-zero export`).
void export_play_file(const std::string& checkpoint_path, const std::string& play_path, const std::string& name);
// A fresh network of the given shape, saved as a play file (untrained weights): for tests and
// benchmarks.
void write_random_play_file(const std::string& path, const ModelShape& shape, std::uint64_t seed,
                            const BoardSet& boards = {}, const RuleSettings& rules = {},
                            std::string_view game = Games::First::kName);

}  // namespace ataxx
