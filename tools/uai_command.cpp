#include <iostream>
#include <string>

#include "tools/commands.h"
#include "uai/uai_engine.h"

namespace ataxx::cli {

void add_uai_command(CLI::App& app) {
  struct Options {
    std::string model;
    std::string player;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("uai", "Speak UAI on stdin/stdout, for Ataxx GUIs and match runners");
  cmd->add_option("--model", options->model, "Play file to search with (default: the net in nets/)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--player", options->player, "Player spec used instead of a model (e.g. alphabeta)");
  cmd->callback([options] {
    std::ios::sync_with_stdio(false);
    // Untied: reading a line must not flush std::cout from this thread while the engine's thread
    // writes to it (that race duplicated output lines).
    std::cin.tie(nullptr);
    UaiEngine engine(std::cout);
    if (!options->player.empty()) engine.set_option("Player", options->player);
    const std::string model = options->model.empty() && options->player.empty() ? shipped_net() : options->model;
    if (!model.empty()) engine.set_option("Model", model);
    std::string line;
    while (std::getline(std::cin, line))
      if (!engine.handle(line)) return;
    engine.finish();  // end of input: finish what was asked (an infinite search stops)
  });
}

}  // namespace ataxx::cli
