#include <filesystem>
#include <string>

#include "tools/commands.h"

namespace ataxx::cli {

std::string shipped_net(std::string_view game) {
  const std::string nets = ATAXX_SHIPPED_NETS;  // nets/ in the source tree
  const std::string path = nets + (game == "schataxx" ? "/schataxx.net" : "/ataxx-7x7.net");
  return std::filesystem::exists(path) ? path : "";
}

}  // namespace ataxx::cli
