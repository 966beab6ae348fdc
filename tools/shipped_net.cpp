#include <filesystem>
#include <string>
#include <system_error>

#include "tools/commands.h"

namespace ataxx::cli {

std::string shipped_nets_dir() {
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error)
    for (const auto& dir :
         {program.parent_path() / "nets", program.parent_path().parent_path() / "share/ataxx-zero/nets"})
      if (std::filesystem::is_directory(dir, error)) return dir.string();
  return "";
}

}  // namespace ataxx::cli
