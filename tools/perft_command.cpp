#include <iostream>
#include <string>

#include "game/perft.h"
#include "tools/commands.h"

namespace ataxx::cli {

void add_perft_command(CLI::App& app) {
  struct Options {
    int depth = 0;
    std::string fen{Position::kStartFen};
    bool split = false;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree");
  cmd->add_option("depth", options->depth, "Depth in plies")->required()->check(CLI::Range(0, 20));
  cmd->add_option("fen", options->fen, "Position (default: the start position)");
  cmd->add_flag("--split", options->split, "Print the count below each legal move");
  cmd->callback([options] {
    const Position pos = Position::from_fen(options->fen);
    if (options->split) {
      std::uint64_t total = 0;
      for (const auto& [move, nodes] : perft_split(pos, options->depth)) {
        std::cout << to_string(move, pos.board()) << ": " << nodes << '\n';
        total += nodes;
      }
      std::cout << "\nNodes: " << total << '\n';
    } else {
      std::cout << perft(pos, options->depth) << '\n';
    }
  });
}

}  // namespace ataxx::cli
