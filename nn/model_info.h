// What model files say about themselves, as plain C++ for code outside nn/.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "games/ataxx/position.h"
#include "nn/encoding.h"
#include "games/schataxx/encoding.h"

namespace ataxx {

struct ModelShape {
  int blocks = 6;
  int channels = 64;
};
// Channels of the policy and value heads' first convolutions, whatever the shape.
inline constexpr int kHeadChannels = 32;

// What a game's encoding gives the network and asks of it, on a square canvas: its input planes,
// the one of them that marks the board's cells (the trunk is masked to it), and its policy planes
// per cell (the pass comes after them). The network itself takes any canvas.
struct NetworkIo {
  int input_planes = 0;
  int mask_plane = 0;
  int move_planes = 0;
  int canvas = 0;
  int area() const { return canvas * canvas; }
  int input_size() const { return input_planes * area(); }
  int policy_size() const { return move_planes * area() + 1; }
  int pass_index() const { return move_planes * area(); }
};
inline constexpr NetworkIo kAtaxxIo{kInputPlanes, kMaskPlane, kMoveTypes, 7};
inline constexpr NetworkIo kSchataxxIo{schataxx::kInputPlanes, schataxx::kMaskPlane, schataxx::kMovePlanes, 8};

// The games a model file can name.
inline constexpr std::string_view kAtaxxName = "ataxx";
inline constexpr std::string_view kSchataxxName = "schataxx";

// The planes of a network of `game` (Ataxx's canvas holds its boards); throws
// std::invalid_argument for a game no network plays.
inline NetworkIo network_io(std::string_view game, const BoardSet& boards) {
  if (game == kSchataxxName) return kSchataxxIo;
  if (game != kAtaxxName) throw std::invalid_argument("unknown game '" + std::string(game) + "'");
  NetworkIo io = kAtaxxIo;
  io.canvas = boards.encoding().canvas();
  return io;
}

struct ModelInfo {
  std::string game{kAtaxxName};
  ModelShape shape;
  int encoding_version = 0;
  BoardSet boards;           // Ataxx's; Schataxx has one board
  RuleSettings rules;        // Schataxx's ply and repetition limits in the same two numbers
  std::int64_t step = 0;     // training steps behind these weights
  NetworkIo io() const { return network_io(game, boards); }
  std::string name;          // e.g. "gen-0007"
  std::string parent;        // the model it was trained from
};

struct CheckpointInfo {
  std::string game{kAtaxxName};
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
                            std::string_view game = kAtaxxName);

}  // namespace ataxx
