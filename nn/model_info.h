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
  NetworkIo io() const { return network_io(game, boards); }
  std::string name;          // e.g. "gen-0007"
  std::string parent;        // the model it was trained from
};

struct CheckpointInfo {
  std::string game{Games::First::kName};
  ModelShape shape;
  BoardSet boards;
  RuleSettings rules;        // the run's, copied into play files made by export
  std::int64_t step = 0;
  std::string optimizer;     // "sgd" or "adamw"
  std::string config_yaml;   // the run's effective configuration
};

class ModelFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Model files through LibTorch (defined in nn/model_file.cpp, so only in programs that link it),
// declared here for code that need not include torch.
// A checkpoint's header: its shape, step, run config.
CheckpointInfo read_checkpoint_info(const std::string& path);
// Makes a play file from a checkpoint (`ataxx-zero export`).
void export_play_file(const std::string& checkpoint_path, const std::string& play_path, const std::string& name);
// A fresh network of the given shape, saved as a play file (untrained weights): for tests and
// benchmarks.
void write_random_play_file(const std::string& path, const ModelShape& shape, std::uint64_t seed,
                            const BoardSet& boards = {}, const RuleSettings& rules = {},
                            std::string_view game = Games::First::kName);

}  // namespace ataxx
