// `--out` of the commands that write one file (openings, export), with `--force`: a file already
// there is replaced only when asked, and the command refuses before it does its work.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace ataxx::cli {

struct OutputFile {
  std::string path;
  bool replace = false;  // --force
};

// Adds a required `--out` and `--force` to `cmd`, into `out`.
void add_output_option(CLI::App& cmd, OutputFile& out, const std::string& description);

// Throws when `out.path` names something that exists and --force was not given.
void refuse_to_replace_unasked(const OutputFile& out);

}  // namespace ataxx::cli
