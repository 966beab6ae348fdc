#include <filesystem>
#include <string>

#include "tools/commands.h"

namespace ataxx::cli {

std::string shipped_net() {
  const std::string path = ATAXX_SHIPPED_NET;  // nets/ataxx-7x7.net in the source tree
  return std::filesystem::exists(path) ? path : "";
}

}  // namespace ataxx::cli
