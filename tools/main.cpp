#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ataxx-zero: AlphaZero-style self-play training for Ataxx"};
  app.name("ataxx-zero");
  app.option_defaults()->always_capture_default();
  app.require_subcommand(1);
  ataxx::cli::add_perft_command(app);
  ataxx::cli::add_bench_command(app);
  ataxx::cli::add_match_command(app);
  ataxx::cli::add_ratings_command(app);
  ataxx::cli::add_openings_command(app);
  ataxx::cli::add_train_command(app);
  ataxx::cli::add_selfplay_command(app);
  ataxx::cli::add_pack_command(app);
  ataxx::cli::add_export_command(app);
  ataxx::cli::add_uai_command(app);
  ataxx::cli::add_analysis_command(app);
  ataxx::cli::add_play_command(app);
#ifdef ATAXX_SERVER
  ataxx::cli::add_serve_command(app);
#endif
  return ataxx::cli::run_app(app, argc, argv);
}
