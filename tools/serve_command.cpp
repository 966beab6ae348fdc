#include <memory>

#include "server/serve.h"
#include "tools/commands.h"

namespace ataxx::cli {

void add_serve_command(CLI::App& app) {
  auto options = std::make_shared<server::ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "Serve the browser view: play every board, watch a run learn");
  cmd->add_option("--run-dir", options->run_dir, "A training run to watch (read only)")->check(CLI::ExistingDirectory);
  cmd->add_option("--model", options->model,
                  "Play file to play with, before the shipped nets (" ATAXX_SHIPPED_NETS_WHERE ")")
      ->check(model_file_check());
  cmd->add_option("--address", options->address, "Address to listen on (127.0.0.1: this machine only)");
  cmd->add_option("--allow-host", options->host_names,
                  "A DNS name the page is reached by (repeatable): requests naming any other than an IP address or "
                  "localhost are refused, so that no other site can reach the server through a name of its own");
  cmd->add_option("--port", options->port, "Port to listen on (0: any free one)")->check(CLI::Range(0, 65535));
  cmd->add_option("--threads", options->search_threads, "Threads of each engine search")->check(CLI::Range(1, 64));
  cmd->callback([options] {
    options->nets_dir = shipped_nets_dir();
    server::serve(*options);
  });
}

}  // namespace ataxx::cli
