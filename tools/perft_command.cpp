#include <iostream>
#include <string>

#include "tools/commands.h"
#include "tools/variant_option.h"

namespace ataxx::cli {

namespace {

struct PerftOptions {
  int depth = 0;
  std::string fen;  // "": the game's start
  bool split = false;
  std::string variant;
};

template <typename G>
void print_perft(const typename G::Position& pos, const PerftOptions& options) {
  if (!options.split) {
    std::cout << G::perft(pos, options.depth) << '\n';
    return;
  }
  if (options.depth == 0) {  // the position itself, below no move
    std::cout << "\nNodes: " << G::perft(pos, 0) << '\n';
    return;
  }
  std::uint64_t total = 0;
  for (const auto& [move, nodes] : G::perft_split(pos, options.depth)) {
    std::cout << G::move_text(move, pos) << ": " << nodes << '\n';
    total += nodes;
  }
  std::cout << "\nNodes: " << total << '\n';
}

}  // namespace

void add_perft_command(CLI::App& app) {
  auto options = std::make_shared<PerftOptions>();
  auto* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree");
  cmd->add_option("depth", options->depth, "Depth in plies")->required()->check(CLI::Range(0, 20));
  cmd->add_option("fen", options->fen, fen_help());
  cmd->add_flag("--split", options->split, "Print the count below each legal move");
  add_variant_option(*cmd, options->variant, "Count in this variant, from its start or a FEN of its game");
  cmd->callback([options] {
    with_start_position(options->fen, options->variant,
                        [&]<typename G>(const typename G::Position& pos) { print_perft<G>(pos, *options); });
  });
}

}  // namespace ataxx::cli
