#include <string>

#include "tools/commands.h"

namespace ataxx::cli {

std::string shipped_nets_dir() { return ATAXX_SHIPPED_NETS; }  // nets/ in the source tree

}  // namespace ataxx::cli
