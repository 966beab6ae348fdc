#include "server/engines.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "game/board.h"
#include "nn/inference_server.h"

namespace ataxx::server {

EngineChooser::EngineChooser(const std::string& model, const std::string& nets_dir) {
  if (!model.empty()) nets_.push_back({model, read_model_info(model)});
  std::vector<std::string> shipped;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(nets_dir, error))
    if (entry.path().extension() == ".net") shipped.push_back(entry.path().string());
  std::sort(shipped.begin(), shipped.end());
  for (const std::string& path : shipped) {
    try {
      nets_.push_back({path, read_model_info(path)});
    } catch (const ModelFileError&) {
    }
  }
}

const EngineChooser::Net* EngineChooser::net_for(std::string_view game, std::string_view board) const {
  for (const Net& net : nets_) {
    if (net.info.game != game) continue;
    if (game == kSchataxxName) return &net;
    const Board* found = find_board(board);
    if (found && net.info.boards.contains(*found)) return &net;
  }
  return nullptr;
}

}  // namespace ataxx::server
