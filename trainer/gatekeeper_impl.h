// The template definitions of trainer/gatekeeper.h: included by gatekeeper.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "trainer/gatekeeper.h"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "match/match.h"
#include "match/openings.h"
#include "players/network_player.h"
#include "players/player.h"
#include "util/clock.h"

namespace ataxx {
namespace {

template <typename G>
BasicPlayerSource<G> run_model(const RunConfig& config, const RunDirectory& dir, const std::string& model, int visits) {
  return run_network_player<G>(config, model, dir.model_path(model), visits);
}

// The match's result, or nothing when the run stopped before it was over.
template <typename G>
std::optional<PairResult> play_pair(const RunConfig& config, const BasicPlayerSource<G>& first,
                                    const BasicPlayerSource<G>& second, int games, std::uint64_t seed,
                                    const std::function<bool()>& stopped,
                                    const std::optional<SprtParams>& sprt = std::nullopt,
                                    SprtVerdict* verdict = nullptr) {
  BasicMatchConfig<G> match = run_match_config<G>(config, first, second, games, seed);
  match.sprt = sprt;
  match.stopped = stopped;
  const BasicMatchResult<G> result = run_match(match);
  if (result.stopped) return std::nullopt;
  if (verdict) *verdict = result.verdict;
  return PairResult{first.name, second.name, result.score.wins, result.score.draws, result.score.losses};
}

// Gates candidate against the best; records the verdict and promotes on success.
template <typename G>
void gate(const RunConfig& config, const RunDirectory& dir, int generation, const std::function<bool()>& stopped,
          spdlog::logger& log) {
  const std::string candidate = generation_name(generation);
  const std::string best = dir.best();
  const auto& g = config.gating;
  if (g.games == 0) {  // no gating: each candidate is the new best at once, as lc0 and KataGo run
    log.info("gating off: {} replaces {}", candidate, best);
    dir.record_gating(candidate, best, {candidate, best}, true);
    dir.set_best(candidate);
    return;
  }
  std::optional<SprtParams> sprt;
  if (!g.sprt.empty()) sprt = parse_sprt(g.sprt);
  SprtVerdict verdict = SprtVerdict::kContinue;
  const std::optional<PairResult> played =
      play_pair<G>(config, run_model<G>(config, dir, candidate, g.visits), run_model<G>(config, dir, best, g.visits), g.games,
                config.run.seed + generation, stopped, sprt, &verdict);
  if (!played) {
    log.info("gating {} vs {}: stopped; a resume plays it again, or a newer candidate in its place", candidate, best);
    return;
  }
  const PairResult& result = *played;
  const MatchScore score{result.first_wins, result.second_wins, result.draws};
  const bool by_threshold = !sprt || (verdict == SprtVerdict::kContinue && g.undecided == "threshold");
  const bool promoted = by_threshold ? score.score() >= g.threshold : verdict == SprtVerdict::kAcceptH1;
  const char* how = !sprt ? "by threshold"
                    : verdict != SprtVerdict::kContinue ? "by SPRT"
                    : by_threshold ? "SPRT undecided, by threshold"
                                   : "SPRT undecided";
  log.info("gating {} vs {}: {} - {} - {} [{:.3f}], Elo {}: {} ({})", candidate, best, score.wins,
           score.losses, score.draws, score.score(), to_string(estimate_elo(score)), promoted ? "promoted" : "rejected", how);
  dir.record_gating(candidate, best, result, promoted);  // first: the rest follows from it (repair_gating)
  dir.record_match(generation, result, "gating");
  if (promoted) dir.set_best(candidate);
}

}  // namespace

template <typename G>
void play_ladder(const RunConfig& config, const RunDirectory& dir, const std::function<bool()>& stopped,
                 spdlog::logger& log) {
  const std::string model = dir.best();
  if (config.ladder.games == 0) return;
  const int generation = generation_number(model).value_or(0);
  for (const std::string& baseline : config.ladder.baselines) {
    if (stopped() || dir.has_match(generation, model, baseline, "ladder")) continue;
    std::optional<PairResult> played;
    try {
      played =
          play_pair<G>(config, run_model<G>(config, dir, model, config.ladder.visits), BasicPlayerSource<G>(baseline),
                       config.ladder.games, config.run.seed + 7 * generation, stopped);
    } catch (const std::exception& e) {  // a baseline that checked at the start and fails now: the run goes on
      log.warn("ladder: {} vs {} not played: {}", model, baseline, e.what());
      continue;
    }
    if (!played) return;
    const PairResult& r = *played;
    log.info("ladder {} vs {}: {} - {} - {}", model, baseline, r.first_wins, r.second_wins, r.draws);
    dir.record_match(generation, r, "ladder");
  }
}

namespace {

// The games of a run's matches start from every board's suite (or its variant's).
template <typename G>
std::vector<typename G::Position> run_openings(const RunConfig& config) {
  std::vector<std::vector<typename G::Position>> suites;
  for (const StartPlan& plan : start_plans<G>(config)) suites.push_back(G::openings_of(plan.name, plan.openings));
  return interleave(suites);  // one board after the other, so that every match plays them all
}

}  // namespace

// As a match readies its players before its first game.
template <typename G>
void check_run_matches(const RunConfig& config) {
  const std::vector<typename G::Position> openings = run_openings<G>(config);
  if (config.ladder.games == 0) return;
  for (const std::string& baseline : config.ladder.baselines) {
    try {
      ready_to_play(*make_player<G>(baseline), openings, config.run.seed);
    } catch (const std::exception& e) {
      throw std::invalid_argument("ladder.baselines: '" + baseline + "' cannot play: " + e.what());
    }
  }
}

template <typename G>
BasicNetworkPlayerOptions<G> run_network_options(const RunConfig& config, const std::string& model_path, int visits) {
  BasicNetworkPlayerOptions<G> options;
  options.model = model_path;
  options.search.visits = visits;
  options.inference = config.inference;
  return options;
}

template <typename G>
BasicPlayerSource<G> run_network_player(const RunConfig& config, const std::string& name,
                                        const std::string& model_path, int visits) {
  return {name, [options = run_network_options<G>(config, model_path, visits)] { return make_network_player<G>(options); }};
}

template <typename G>
BasicMatchConfig<G> run_match_config(const RunConfig& config, BasicPlayerSource<G> first, BasicPlayerSource<G> second,
                                     int games, std::uint64_t seed) {
  BasicMatchConfig<G> match;
  match.player1 = std::move(first);
  match.player2 = std::move(second);
  match.games = games;
  match.concurrency = config.gating.concurrency;
  match.openings = run_openings<G>(config);
  match.seed = seed;
  match.rules = G::rules_from(config.rules);  // as the run's models search: their play files hold the run's rules
  return match;
}

template <typename G>
void gate_continuously(const RunConfig& config, const RunDirectory& dir, const std::function<bool()>& stopped,
                       spdlog::logger& log) {
  dir.repair_gating();  // a verdict whose match record or promotion a kill cut off
  const SteadyClock::time_point start = SteadyClock::now();
  TimeShare share(config.gating.time_share);
  auto play = [&](const std::function<void()>& matches) {
    const SteadyClock::time_point begin = SteadyClock::now();
    matches();
    share.add_busy(seconds_since(begin));
  };
  RatingsAndPlots ratings_and_plots;
  // Candidates below this one were gated or passed over (those of an earlier session logged there).
  int passed_over = dir.newest_gated();
  while (!stopped()) {
    if (share.rest(seconds_since(start)) > 0) {
      std::this_thread::sleep_for(kRunPollInterval);
      continue;
    }
    play([&] { play_ladder<G>(config, dir, stopped, log); });
    const int newest = dir.newest_model().value_or(0);
    const std::optional<bool> verdict = newest > 0 ? dir.gating_verdict(generation_name(newest)) : std::nullopt;
    if (newest > 0 && !verdict) {
      for (int g = std::max(passed_over, 1); g < newest; ++g)
        if (!dir.gating_verdict(generation_name(g))) log.info("gating: {} passed over, {} is newer", generation_name(g), generation_name(newest));
      passed_over = newest;
      play([&] {
        gate<G>(config, dir, newest, stopped, log);
        play_ladder<G>(config, dir, stopped, log);
      });
      ratings_and_plots.update(dir, log);
    } else if (newest >= config.run.max_generations) {
      return;  // the last candidate is decided
    } else {
      std::this_thread::sleep_for(kRunPollInterval);
    }
  }
}

}  // namespace ataxx
