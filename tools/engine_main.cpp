// ataxx-engine: the commands that play, built without LibTorch (nn/eigen_backend.cpp), so that a
// tournament manager starts it at once and it needs no more than the C++ runtime, Eigen's code
// and the nets. With no command it speaks UAI with the shipped nets, as match runners expect.
#include <vector>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ataxx-engine: the ataxx-zero engine on the CPU, without LibTorch (UAI with no command)"};
  app.name("ataxx-engine");
  app.option_defaults()->always_capture_default();
  app.require_subcommand(1);
  ataxx::cli::add_uai_command(app);
  ataxx::cli::add_analysis_command(app);
  ataxx::cli::add_play_command(app);
  ataxx::cli::add_match_command(app);
  ataxx::cli::add_ratings_command(app);
  ataxx::cli::add_openings_command(app);
  ataxx::cli::add_perft_command(app);
  // After the subcommands: each takes its parent's footer when it is made.
  app.footer("With no subcommand it speaks UAI, as `ataxx-engine uai`.");
  std::vector<char*> args(argv, argv + argc);
  char uai[] = "uai";
  if (argc == 1) args.push_back(uai);
  return ataxx::cli::run_app(app, static_cast<int>(args.size()), args.data());
}
