// What model files say about themselves, as plain C++ for code outside nn/.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "game/position.h"
#include "nn/encoding.h"

namespace ataxx {

struct ModelShape {
  int blocks = 6;
  int channels = 64;
};

// What a game's encoding gives the network and asks of it: its input planes, the one of them that
// marks the board's cells (the trunk is masked to it), and its policy planes per cell (the pass
// comes after them).
struct NetworkIo {
  int input_planes = 0;
  int mask_plane = 0;
  int move_planes = 0;
};
inline constexpr NetworkIo kAtaxxIo{kInputPlanes, kMaskPlane, kMoveTypes};

struct ModelInfo {
  ModelShape shape;
  int encoding_version = 0;
  BoardSet boards;
  RuleSettings rules;
  std::int64_t step = 0;     // training steps behind these weights
  std::string name;          // e.g. "gen-0007"
  std::string parent;        // the model it was trained from
};

struct CheckpointInfo {
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

// Makes a play file from a checkpoint (`ataxx-zero export`).
void export_play_file(const std::string& checkpoint_path, const std::string& play_path, const std::string& name);

}  // namespace ataxx
