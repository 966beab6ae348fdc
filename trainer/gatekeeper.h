// Gating and the ladder of a run: each candidate plays the best model and is promoted on its
// result; each promoted model plays the ladder's fixed baselines once; every result feeds the
// ratings table. Runs beside self-play and training, never in their way.
#pragma once

#include <spdlog/logger.h>

#include <algorithm>
#include <functional>
#include <string>

#include "config/run_config.h"
#include "match/match.h"
#include "players/network_player.h"
#include "trainer/run_directory.h"

namespace ataxx {

// Written once for every game; G is the run's (run.game).
// A run's model in gating and ladder matches: the run's inference device and server settings,
// `visits` per move. Made by code, never through a spec: the run's path may hold ',' or '='.
template <typename G = DefaultGame>
BasicNetworkPlayerOptions<G> run_network_options(const RunConfig& config, const std::string& model_path, int visits);
template <typename G = DefaultGame>
BasicPlayerSource<G> run_network_player(const RunConfig& config, const std::string& name,
                                        const std::string& model_path, int visits);
// A gating or ladder match under the run's rules: the openings of every board of an Ataxx run, the
// variant's suite of a game without boards.
template <typename G>
BasicMatchConfig<G> run_match_config(const RunConfig& config, BasicPlayerSource<G> first, BasicPlayerSource<G> second,
                                     int games, std::uint64_t seed);

// Keeps gating and the ladder within a share of the wall time since they started: after `busy`
// seconds of matches they rest until busy / share seconds have passed, and self-play and training
// have the machine meanwhile.
class TimeShare {
 public:
  explicit TimeShare(double share) : share_(share) {}
  void add_busy(double seconds) { busy_ += seconds; }
  double rest(double elapsed) const { return std::max(0.0, busy_ / share_ - elapsed); }  // seconds

 private:
  double share_;
  double busy_ = 0;
};

// ratings.csv and the plots, drawn anew after each decided candidate. A missing gnuplot is said
// once (the CSVs have every figure); a gnuplot that fails, each time.
class RatingsAndPlots {
 public:
  void update(const RunDirectory& dir, spdlog::logger& log);

 private:
  bool said_no_gnuplot_ = false;
};

// Gates the newest candidate whenever it has no verdict yet (older ones without a verdict are
// passed over), and plays the ladder of each new best model. Returns once the run's last
// candidate (run.max_generations) is decided, or when stopped() says so. Within gating.time_share
// of the wall time: candidates exported while it rests are passed over.
template <typename G>
void gate_continuously(const RunConfig& config, const RunDirectory& dir, const std::function<bool()>& stopped,
                       spdlog::logger& log);

// The best model against each baseline of the ladder it has not played yet (ladder.games each),
// recorded in the run's matches. A stop mid-ladder loses one match; a baseline that cannot play
// now (an engine gone since the run's start) is said and passed over.
template <typename G>
void play_ladder(const RunConfig& config, const RunDirectory& dir, const std::function<bool()>& stopped,
                 spdlog::logger& log);

// Throws where the run's matches could not start: an openings file with a line that is no
// position, or (std::invalid_argument, naming the baseline) a ladder spec that cannot be made into
// a player (a model file not found from where the run started, say): at the run's start rather
// than at its first match. A ladder that plays no games has no baselines to check.
template <typename G>
void check_run_matches(const RunConfig& config);

// The ratings of every model and baseline from all rated games so far, headed by the player rated
// 0 (random where it played); also written to ratings.csv. Before any rated game, a line saying so.
std::string ratings_table(const RunDirectory& dir);

}  // namespace ataxx
