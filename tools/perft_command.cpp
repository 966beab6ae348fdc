#include <iostream>
#include <string>

#include "games/ataxx/perft.h"
#include "games/schataxx/game.h"
#include "tools/commands.h"
#include "tools/variant_option.h"

namespace ataxx::cli {

namespace {

struct PerftOptions {
  int depth = 0;
  std::string fen{Position::kStartFen};
  bool split = false;
  std::string variant{schataxx::variant_name(schataxx::Variant::kStandard)};
};

void schataxx_perft(const PerftOptions& options) {
  const schataxx::Position pos = schataxx::Position::from_fen(options.fen, schataxx::parse_variant(options.variant));
  if (!options.split) {
    std::cout << schataxx::perft(pos, options.depth) << '\n';
    return;
  }
  std::uint64_t total = 0;
  for (const auto& [move, nodes] : schataxx::perft_split(pos, options.depth)) {
    std::cout << schataxx::to_string(move) << ": " << nodes << '\n';
    total += nodes;
  }
  std::cout << "\nNodes: " << total << '\n';
}

}  // namespace

void add_perft_command(CLI::App& app) {
  auto options = std::make_shared<PerftOptions>();
  auto* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree");
  cmd->add_option("depth", options->depth, "Depth in plies")->required()->check(CLI::Range(0, 20));
  auto* fen =
      cmd->add_option("fen", options->fen,
                      "Position (default: Ataxx's start); stocks in brackets make it Schataxx (--variant names which)");
  cmd->add_flag("--split", options->split, "Print the count below each legal move");
  auto* variant = add_variant_option(*cmd, options->variant,
                                     "Schataxx in this variant, from its start or a Schataxx FEN: schataxx, "
                                     "schataxx-balanced or schataxx-unlimited");
  cmd->callback([options, fen, variant] {
    if (settle_schataxx_fen(options->fen, fen->count() > 0, variant->count() > 0)) {
      schataxx_perft(*options);
      return;
    }
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
