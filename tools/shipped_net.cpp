#include <filesystem>
#include <string>

#include "tools/commands.h"

namespace ataxx::cli {

std::string shipped_nets_dir() { return ATAXX_SHIPPED_NETS; }  // nets/ in the source tree

std::string shipped_net(std::string_view game) {
  const std::string nets = shipped_nets_dir();
  const std::string path = nets + (game == "schataxx" ? "/schataxx.net" : "/ataxx-7x7.net");
  return std::filesystem::exists(path) ? path : "";
}

}  // namespace ataxx::cli
