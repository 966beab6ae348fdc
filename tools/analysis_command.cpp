#include <iostream>
#include <string>

#include "analysis/analysis_engine.h"
#include "players/net_shelf.h"
#include "tools/commands.h"
#include "util/parallel.h"

namespace ataxx::cli {

void add_analysis_command(CLI::App& app) {
  struct Options {
    std::string model;
    int threads = 0;
    int search_threads = 1;
    int visits = 500;
    std::string report_as = "SIDETOMOVE";
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "analysis", "Analyse positions for tools: JSON queries on stdin, one a line, answers on stdout (docs/analysis.md)");
  cmd->add_option("--model", options->model,
                  "Play file to analyse with, before the shipped nets (default: the shipped nets, each for its "
                  "boards: " ATAXX_SHIPPED_NETS_WHERE ")")
      ->check(model_file_check());
  cmd->add_option("--threads", options->threads,
                  "Turns searched at once (default: one for each core this process may use)")
      ->check(CLI::Range(1, 1024))
      ->default_str("");  // not given: the cores
  cmd->add_option("--search-threads", options->search_threads, "Threads searching each turn")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--visits", options->visits, "Visits a turn unless its query's maxVisits says")
      ->check(CLI::Range(1, analysis::kMostVisits))
      ->capture_default_str();
  cmd->add_option("--report-winrates-as", options->report_as,
                  "Whose view winrates, leads and ownership are from unless a query says (KataGo's "
                  "reportAnalysisWinratesAs)")
      ->check(CLI::IsMember({"SIDETOMOVE", "BLACK", "WHITE"}, CLI::ignore_case))
      ->capture_default_str();
  cmd->callback([options] {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    const NetShelf nets(options->model, shipped_nets_dir());
    const int cores = usable_cores();
    analysis::Engine engine({.nets = &nets,
                             .threads = options->threads > 0 ? options->threads : cores,
                             .search_threads = options->search_threads,
                             .default_visits = options->visits,
                             .report_as = *analysis::perspective_named(options->report_as)},
                            [](const std::string& line) { std::cout << line << '\n' << std::flush; });
    std::string line;
    while (std::getline(std::cin, line)) engine.handle(line);
    engine.finish();  // the end of input: every query asked is answered
  });
}

}  // namespace ataxx::cli
