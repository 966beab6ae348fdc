#include <cstdio>

#include "nn/model_info.h"
#include "tools/commands.h"

namespace ataxx::cli {

void add_export_command(CLI::App& app) {
  struct Options {
    std::string checkpoint;
    std::string out;
    std::string name = "exported";
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("export", "Make a play file (for uai, match, play) from a training checkpoint");
  cmd->add_option("checkpoint", options->checkpoint, "Checkpoint file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", options->out, "Play file to write")->required();
  cmd->add_option("--name", options->name, "Model name stored in the file");
  cmd->callback([options] {
    export_play_file(options->checkpoint, options->out, options->name);
    std::printf("wrote %s\n", options->out.c_str());
  });
}

}  // namespace ataxx::cli
