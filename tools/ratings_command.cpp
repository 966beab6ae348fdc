#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "match/pgn_results.h"
#include "tools/commands.h"

namespace ataxx::cli {

void add_ratings_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> pgn_paths;
    std::string anchor;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "ratings", "Fit every player's Elo from the games of PGN files, jointly (as Ordo and BayesElo do)");
  cmd->add_option("pgn", options->pgn_paths, "PGN files (matches' --pgn, or any runner's)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--anchor", options->anchor, "The player rated 0 (default: random where it played, else the first)");
  cmd->callback([options] {
    std::vector<PairResult> results;
    for (const std::string& path : options->pgn_paths) {
      std::ifstream in(path);
      add_pgn_results(in, path, results);
    }
    if (results.empty()) throw std::runtime_error("no finished game in the PGN given");
    std::map<std::string, double> points;
    for (const PairResult& r : results) {
      points[r.first] += r.first_wins + 0.5 * r.draws;
      points[r.second] += r.second_wins + 0.5 * r.draws;
    }
    std::string anchor = options->anchor;
    if (anchor.empty()) anchor = points.contains("random") ? "random" : results.front().first;
    if (!points.contains(anchor)) throw std::runtime_error("--anchor '" + anchor + "' played no game in the PGN given");
    std::vector<Rating> ratings = fit_ratings(results, anchor);
    std::ranges::stable_sort(ratings, [](const Rating& a, const Rating& b) { return a.elo > b.elo; });
    std::size_t width = 6;
    for (const Rating& r : ratings) width = std::max(width, r.name.size());
    std::printf("%4s  %-*s  %6s  %6s  %6s  %6s\n", "rank", static_cast<int>(width), "player", "Elo", "+/-", "games",
                "score");
    int rank = 0;
    for (const Rating& r : ratings)
      std::printf("%4d  %-*s  %+6.0f  %6.0f  %6d  %5.1f%%\n", ++rank, static_cast<int>(width), r.name.c_str(), r.elo,
                  r.error95, r.games, 100.0 * points[r.name] / std::max(r.games, 1));
    std::printf("Elo: 0 for %s; +/-: 95 %% intervals\n", anchor.c_str());
  });
}

}  // namespace ataxx::cli
