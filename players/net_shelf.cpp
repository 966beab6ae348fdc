#include "players/net_shelf.h"

#include <algorithm>
#include <filesystem>

#include "nn/built_in_nets.h"
#include "nn/inference_server.h"

namespace ataxx {

NetShelf::NetShelf(const std::string& model, const std::string& nets_dir) : nets_dir_(nets_dir) {
  if (!model.empty()) nets_.push_back({model, read_model_info(model)});
  std::vector<std::string> shipped;
  std::error_code error;
  if (!nets_dir.empty())
    for (const auto& entry : std::filesystem::directory_iterator(nets_dir, error))
      if (entry.path().extension() == ".net") shipped.push_back(entry.path().string());
  std::sort(shipped.begin(), shipped.end());
  for (const BuiltInNet& net : built_in_nets()) shipped.push_back(net.path);
  for (const std::string& path : shipped) {
    try {
      nets_.push_back({path, read_model_info(path)});
    } catch (const ModelFileError&) {
    }
  }
}

std::string NetShelf::sources() const {
  if (nets_.empty()) return "";
  const bool built_in = !built_in_nets().empty();
  if (nets_dir_.empty()) return built_in ? "built-in" : "";
  return built_in ? nets_dir_ + ", built-in" : nets_dir_;
}

}  // namespace ataxx
