// `--variant` of the commands that start from a position (play, perft), and the one rule both
// follow: a FEN with its stocks in brackets is Schataxx's, --variant alone starts Schataxx's start
// position in that variant, and --variant beside an Ataxx FEN is an error.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace ataxx::cli {

// Adds `--variant` to `cmd`, checked against Schataxx's variant names, into `variant`.
CLI::Option* add_variant_option(CLI::App& cmd, std::string& variant, const std::string& description);

// Whether the command plays Schataxx: applies the rule above to `fen` (Schataxx's start where the
// variant came alone); `fen_given` and `variant_given` say which of the two the command line set.
bool settle_schataxx_fen(std::string& fen, bool fen_given, bool variant_given);

}  // namespace ataxx::cli
