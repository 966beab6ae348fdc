#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "tools/commands.h"
#include "util/text.h"

namespace ataxx::cli {
namespace {

std::filesystem::path this_program() {
  std::error_code error;
  return std::filesystem::read_symlink("/proc/self/exe", error);
}

}  // namespace

std::string shipped_nets_dir() {
  const std::filesystem::path program = this_program();
  std::error_code error;
  if (!program.empty())
    for (const auto& dir :
         {program.parent_path() / "nets", program.parent_path().parent_path() / "share/ataxx-zero/nets"})
      if (std::filesystem::is_directory(dir, error)) return dir.string();
  return "";
}

std::string program_command(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path self = this_program();
  if (self.empty()) return name;
  const fs::path file = self.parent_path() / name;
  std::error_code error;
  if (const char* path = std::getenv("PATH"))
    for (const std::string& dir : split(path, ':'))
      if (!dir.empty() && fs::equivalent(fs::path(dir) / name, file, error)) return name;
  const fs::path relative = file.lexically_proximate(fs::current_path(error));
  if (!relative.empty() && *relative.begin() != "..") return "./" + relative.string();
  return file.string();
}

}  // namespace ataxx::cli
