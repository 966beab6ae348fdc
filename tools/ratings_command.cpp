#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "match/pgn_results.h"
#include "tools/commands.h"
#include "util/text.h"

namespace ataxx::cli {

void add_ratings_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> pgn_paths;
    std::string anchor;
    std::vector<std::string> fixed;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "ratings", "Fit every player's Elo from the games of PGN files, jointly (as Ordo and BayesElo do)");
  cmd->add_option("pgn", options->pgn_paths, "PGN files (matches' --pgn, or any runner's)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--anchor", options->anchor, "The player rated 0 (default: random where it played, else the first)");
  cmd->add_option("--fixed", options->fixed,
                  "NAME=ELO: a player held at that rating, as rating lists hold their references (repeat it for "
                  "more; the others' +/- are then relative to them)")
      ->excludes("--anchor");
  cmd->callback([options] {
    std::vector<PairResult> results;
    int against_itself = 0;
    for (const std::string& path : options->pgn_paths) {
      std::ifstream in(path);
      against_itself += add_pgn_results(in, path, results);
    }
    if (against_itself > 0)
      std::printf("%d game%s of a player against one of its own name left out: they rate no one\n", against_itself,
                  against_itself == 1 ? "" : "s");
    if (results.empty()) throw std::runtime_error("no finished game between two players in the PGN given");
    std::map<std::string, double> points;
    for (const PairResult& r : results) {
      points[r.first] += r.first_wins + 0.5 * r.draws;
      points[r.second] += r.second_wins + 0.5 * r.draws;
    }
    std::map<std::string, double> fixed_elo;
    for (const std::string& item : options->fixed) {
      const std::size_t equals = item.rfind('=');
      const auto elo = equals == std::string::npos ? std::nullopt : parse_number(item.substr(equals + 1));
      if (!elo || equals == 0) throw std::runtime_error("--fixed '" + item + "' is not NAME=ELO");
      if (!fixed_elo.emplace(item.substr(0, equals), *elo).second)
        throw std::runtime_error("--fixed holds '" + item.substr(0, equals) + "' fixed twice");
    }
    if (fixed_elo.empty()) {
      std::string anchor = options->anchor;
      if (anchor.empty()) anchor = points.contains("random") ? "random" : results.front().first;
      fixed_elo[anchor] = 0.0;
    }
    for (const auto& [name, elo] : fixed_elo)
      if (!points.contains(name))
        throw std::runtime_error("'" + name + "' (held fixed) played no game against another player in the PGN given");
    std::vector<Rating> ratings = fit_ratings(results, fixed_elo);
    std::ranges::stable_sort(ratings, [](const Rating& a, const Rating& b) { return a.elo > b.elo; });
    std::size_t width = 6;
    for (const Rating& r : ratings) width = std::max(width, r.name.size());
    std::printf("%4s  %-*s  %6s  %6s  %6s  %6s\n", "rank", static_cast<int>(width), "player", "Elo", "+/-", "games",
                "score");
    int rank = 0;
    bool unlinked = false;
    for (const Rating& r : ratings) {
      unlinked |= !r.linked;
      if (r.linked)
        std::printf("%4d  %-*s  %+6.0f  %6.0f  %6d  %5.1f%%\n", ++rank, static_cast<int>(width), r.name.c_str(),
                    std::abs(r.elo) < 0.5 ? 0.0 : r.elo,  // +0, never -0
                    r.error95, r.games, 100.0 * points[r.name] / std::max(r.games, 1));
    }
    for (const Rating& r : ratings)
      if (!r.linked)
        std::printf("   -  %-*s  %6s  %6s  %6d  %5.1f%%\n", static_cast<int>(width), r.name.c_str(), "-", "-", r.games,
                    100.0 * points[r.name] / std::max(r.games, 1));
    std::string held;
    for (const auto& [name, elo] : fixed_elo) held += fmt::format("{}{} at {:+.0f}", held.empty() ? "" : ", ", name, elo);
    std::printf("Elo: held fixed: %s; +/-: 95 %% intervals relative to them\n", held.c_str());
    if (unlinked) std::printf("-: no chain of games links the player to one held fixed\n");
  });
}

}  // namespace ataxx::cli
