#include "trainer/gatekeeper_impl.h"

namespace ataxx {

void RatingsAndPlots::update(const RunDirectory& dir, spdlog::logger& log) {
  ratings_table(dir);
  switch (dir.plot()) {
    case RunDirectory::PlotResult::kDrawn:
      return;
    case RunDirectory::PlotResult::kFailed:
      log.warn("plots: gnuplot failed, see {}/plots/gnuplot.log", dir.root());
      return;
    case RunDirectory::PlotResult::kNoGnuplot:
      if (!said_no_gnuplot_)
        log.warn("plots: no gnuplot on this machine's PATH: no plots (metrics.csv and ratings.csv have the figures)");
      said_no_gnuplot_ = true;
      return;
  }
}

std::string ratings_table(const RunDirectory& dir) {
  const auto matches = dir.matches();
  if (matches.empty()) return "No ratings: gating and the ladder played no games.\n";
  bool has_random = false;
  for (const auto& m : matches) has_random |= m.first == "random" || m.second == "random";
  const std::string anchor = has_random ? "random" : matches.front().first;
  const auto ratings = fit_ratings(matches, {{anchor, 0.0}});
  dir.write_ratings(ratings, anchor);
  std::string table = fmt::format("Ratings ({} = 0):\n{:<34} {:>8} {:>8} {:>6}\n", anchor, "player", "elo", "+/-", "games");
  for (const Rating& r : ratings) table += fmt::format("{:<34} {:>8.0f} {:>8.0f} {:>6}\n", r.name, r.elo, r.error95, r.games);
  return table;
}
#define ATAXX_INSTANTIATE(G)                                                                                          \
  template BasicNetworkPlayerOptions<G> run_network_options<G>(const RunConfig&, const std::string&, int);            \
  template BasicPlayerSource<G> run_network_player<G>(const RunConfig&, const std::string&, const std::string&, int); \
  template BasicMatchConfig<G> run_match_config<G>(const RunConfig&, BasicPlayerSource<G>, BasicPlayerSource<G>, int, \
                                                   std::uint64_t);                                                    \
  template void gate_continuously<G>(const RunConfig&, const RunDirectory&, const std::function<bool()>&,             \
                                     spdlog::logger&);                                                                \
  template void play_ladder<G>(const RunConfig&, const RunDirectory&, const std::function<bool()>&, spdlog::logger&); \
  template void check_run_matches<G>(const RunConfig&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
