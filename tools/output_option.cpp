#include "tools/output_option.h"

#include <filesystem>
#include <stdexcept>

namespace ataxx::cli {

void add_output_option(CLI::App& cmd, OutputFile& out, const std::string& description) {
  cmd.add_option("--out", out.path, description)->required();
  cmd.add_flag("--force", out.replace, "Replace the --out file if it exists");
}

std::string path_to_write(const OutputFile& out) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::string path = out.path;
  for (int links = 0; fs::is_symlink(fs::symlink_status(path, error)); ++links) {  // to the file it links to
    if (links == 40) throw std::runtime_error("'" + out.path + "' is a loop of links");
    path = (fs::path(path).parent_path() / fs::read_symlink(path)).lexically_normal().string();
  }
  if (!fs::exists(fs::symlink_status(path, error))) return path;
  if (!out.replace) throw std::runtime_error("'" + out.path + "' exists: give --force to replace it");
  if (!fs::is_regular_file(fs::status(path, error)))
    throw std::runtime_error("'" + out.path + "' is not a file: --out names a file to write");
  return path;
}

}  // namespace ataxx::cli
