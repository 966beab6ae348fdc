#include "tools/output_option.h"

#include <filesystem>
#include <stdexcept>

namespace ataxx::cli {

void add_output_option(CLI::App& cmd, OutputFile& out, const std::string& description) {
  cmd.add_option("--out", out.path, description)->required();
  cmd.add_flag("--force", out.replace, "Replace the --out file if it exists");
}

void refuse_to_replace_unasked(const OutputFile& out) {
  std::error_code error;
  if (out.replace || !std::filesystem::exists(std::filesystem::symlink_status(out.path, error))) return;
  throw std::runtime_error("'" + out.path + "' exists: give --force to replace it");
}

}  // namespace ataxx::cli
