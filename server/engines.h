// Which net plays a board: the model given to `serve`, else a shipped net of nets/ trained on
// that board, else none (then a baseline plays and the page says so).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nn/model_info.h"

namespace ataxx::server {

class EngineChooser {
 public:
  // model: a play file the user gave ("" for none; its errors are thrown now); nets_dir: the
  // shipped nets, read once (files that are not play files are left out).
  EngineChooser(const std::string& model, const std::string& nets_dir);
  struct Net {
    std::string path;
    ModelInfo info;
  };
  // The first net that plays `board` ("7x7", "hexagon"; any for Schataxx) of `game`, the user's
  // model first; nullptr for none.
  const Net* net_for(std::string_view game, std::string_view board) const;

 private:
  std::vector<Net> nets_;
};

}  // namespace ataxx::server
