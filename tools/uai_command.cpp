#include <iostream>
#include <string>

#include "tools/commands.h"
#include "uai/uai_engine.h"

namespace ataxx::cli {

void add_uai_command(CLI::App& app) {
  struct Options {
    std::string model;
    std::string player;
    bool allow_external_engines = false;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("uai", "Speak UAI on stdin/stdout, for Ataxx GUIs and match runners");
  cmd->add_option("--model", options->model,
                  "Play file to search with (default: the shipped nets, each for its boards: " ATAXX_SHIPPED_NETS_WHERE
                  ")")
      ->check(model_file_check());
  cmd->add_option("--player", options->player, "Player spec used instead of a model (e.g. alphabeta)");
  cmd->add_flag("--allow-external-engines", options->allow_external_engines,
                "Let `setoption name Player` start external engines (uai:cmd=...): only for trusted input");
  cmd->callback([options] {
    std::ios::sync_with_stdio(false);
    // Untied: reading a line must not flush std::cout from this thread while the engine's thread
    // writes to it (that race duplicated output lines).
    std::cin.tie(nullptr);
    UaiEngine engine(std::cout, options->allow_external_engines);
    if (!options->player.empty()) engine.set_option("Player", options->player);
    if (!options->model.empty()) engine.set_option("Model", options->model);
    if (options->model.empty() && options->player.empty()) engine.use_nets(NetShelf("", shipped_nets_dir()));
    std::string line;
    while (std::getline(std::cin, line) && engine.handle(line)) {
    }
    engine.finish();  // `quit` or the end of input: finish what was asked (a search stops at once)
  });
}

}  // namespace ataxx::cli
