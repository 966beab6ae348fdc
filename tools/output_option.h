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

// The file to write for `out`: its path, or the file it links to (written through, as a shell's
// redirection writes). Throws where something is there and --force was not given, or where what is
// there is not a file (a folder, a device, a pipe): a file is written beside it and renamed into its place.
std::string path_to_write(const OutputFile& out);

}  // namespace ataxx::cli
