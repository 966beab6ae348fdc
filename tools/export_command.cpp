#include <cstdio>

#include "nn/model_info.h"
#include "tools/commands.h"

namespace ataxx::cli {

void add_export_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> checkpoints;
    std::string out;
    std::string name = "exported";
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("export", "Make a play file (for uai, match, play) from a training checkpoint");
  cmd->add_option("checkpoints", options->checkpoints,
                 "Checkpoint file; several of one run are averaged (weights and batch-norm statistics)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", options->out, "Play file to write")->required();
  cmd->add_option("--name", options->name, "Model name stored in the file");
  cmd->callback([options] {
    export_play_file(options->checkpoints, options->out, options->name);
    std::printf("wrote %s\n", options->out.c_str());
  });
}

}  // namespace ataxx::cli
