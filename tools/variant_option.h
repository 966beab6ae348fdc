// `--variant` of the commands that start from a position (play, perft), and the one rule both
// follow: the game is the FEN's (the first game that claims it, games/registry.h), else
// --variant's, else the first game; --variant alone starts its variant's start position, and
// --variant beside a FEN of another game is an error.
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>

#include "games/registry.h"

namespace ataxx::cli {

// Adds `--variant` to `cmd`, checked against the variants a FEN does not say (those of the games
// without boards), into `variant`.
// `what` says what the command does with it ("Play this variant from its start or a FEN of its game").
CLI::Option* add_variant_option(CLI::App& cmd, std::string& variant, const std::string& what);
// The help of a command's start position: any game's FEN.
std::string fen_help();

// "an Ataxx position": for messages.
std::string position_of(std::string_view title);

// Calls visit.template operator()<G>(position) with the command's start position by the rule
// above: `fen` and `variant` as given ("" for one not given). Throws std::runtime_error for a FEN
// of another game than --variant's.
template <typename Visit>
void with_start_position(const std::string& fen, const std::string& variant, Visit&& visit) {
  if (fen.empty()) {
    with_game(variant.empty() ? Games::First::kName : variant, [&]<typename G>() {
      visit.template operator()<G>(start_of_variant<G>(variant.empty() ? G::kName : variant));
    });
    return;
  }
  Games::with_game_of_fen(fen, [&]<typename G>() {
    if (!variant.empty() && !Games::plays<G>(variant)) {
      const std::string title = with_game(variant, []<typename V>() { return std::string(V::kTitle); });
      throw std::runtime_error("--variant plays " + title + ", but the FEN '" + fen + "' is " + position_of(G::kTitle));
    }
    visit.template operator()<G>(G::from_fen(fen, variant.empty() ? G::kName : variant));
  });
}

}  // namespace ataxx::cli
