#include "nn/built_in_nets.h"

#include "nn/model_info.h"

namespace ataxx {
namespace {

std::vector<BuiltInNet>& registry() {
  static std::vector<BuiltInNet> nets;
  return nets;
}

}  // namespace

void add_built_in_net(std::string_view file_name, std::string_view bytes) {
  registry().push_back({std::string(kBuiltInPrefix) + std::string(file_name), bytes});
}

const std::vector<BuiltInNet>& built_in_nets() { return registry(); }

std::optional<std::string_view> built_in_net(std::string_view path) {
  if (!path.starts_with(kBuiltInPrefix)) return std::nullopt;
  std::string carried;
  for (const BuiltInNet& net : registry()) {
    if (net.path == path) return net.bytes;
    carried += (carried.empty() ? "" : ", ") + net.path;
  }
  throw ModelFileError("no net is built into this program as '" + std::string(path) + "'; it carries " +
                       (carried.empty() ? "none" : carried));
}

}  // namespace ataxx
