#include "trainer/gatekeeper.h"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "match/match.h"
#include "match/openings.h"
#include "players/network_player.h"
#include "players/player.h"
#include "util/clock.h"

namespace ataxx {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);

std::string nn_spec(const RunConfig& config, const RunDirectory& dir, const std::string& model, int visits) {
  return network_player_spec(config, dir.model_path(model), visits);
}

// The openings of every board of the run, one board after the other, so that every match plays
// them all.
std::vector<Position> match_openings(const RunConfig& config) {
  std::vector<std::vector<Position>> suites;
  for (const BoardPlan& plan : board_plans(config)) suites.push_back(board_openings(*plan.board, plan.openings));
  return interleave(suites);
}

PairResult play_pair(const RunConfig& config, const std::string& first_name, const std::string& first_spec,
                     const std::string& second_name, const std::string& second_spec, int games, std::uint64_t seed,
                     const std::optional<SprtParams>& sprt, SprtVerdict* verdict = nullptr) {
  MatchConfig match;
  match.player1 = first_spec;
  match.player2 = second_spec;
  match.games = games;
  match.concurrency = config.gating.concurrency;
  match.openings = match_openings(config);
  match.seed = seed;
  match.sprt = sprt;
  const MatchResult result = run_match(match);
  if (verdict) *verdict = result.verdict;
  return {first_name, second_name, result.score.wins, result.score.draws, result.score.losses};
}

// Gates candidate against the best; records the verdict and promotes on success.
void gate(const RunConfig& config, const RunDirectory& dir, int generation, spdlog::logger& log) {
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
  const PairResult result =
      play_pair(config, candidate, nn_spec(config, dir, candidate, g.visits), best, nn_spec(config, dir, best, g.visits),
                g.games, config.run.seed + generation, sprt, &verdict);
  const MatchScore score{result.first_wins, result.second_wins, result.draws};
  const bool by_threshold = !sprt || (verdict == SprtVerdict::kContinue && g.undecided == "threshold");
  const bool promoted = by_threshold ? score.score() >= g.threshold : verdict == SprtVerdict::kAcceptH1;
  const EloEstimate elo = estimate_elo(score);
  const char* how = !sprt ? "by threshold"
                    : verdict != SprtVerdict::kContinue ? "by SPRT"
                    : by_threshold ? "SPRT undecided, by threshold"
                                   : "SPRT undecided";
  log.info("gating {} vs {}: {} - {} - {} [{:.3f}], Elo {:+.0f} +/- {:.0f}: {} ({})", candidate, best, score.wins,
           score.losses, score.draws, score.score(), elo.elo, elo.error95, promoted ? "promoted" : "rejected", how);
  dir.record_match(generation, result, "gating");
  dir.record_gating(candidate, best, result, promoted);
  if (promoted) dir.set_best(candidate);
}

}  // namespace

void check_ladder_baselines(const RunConfig& config) {
  if (config.ladder.games == 0) return;
  for (const std::string& baseline : config.ladder.baselines) {
    try {
      make_player(baseline);
    } catch (const std::exception& e) {
      throw std::invalid_argument("ladder.baselines: '" + baseline + "' cannot play: " + e.what());
    }
  }
}

namespace {

void play_ladder(const RunConfig& config, const RunDirectory& dir, spdlog::logger& log) {
  const std::string model = dir.best();
  if (config.ladder.games == 0 || dir.has_ladder(model)) return;
  int generation = 0;
  std::sscanf(model.c_str(), "gen-%d", &generation);
  for (const std::string& baseline : config.ladder.baselines) {
    const PairResult r = play_pair(config, model, nn_spec(config, dir, model, config.ladder.visits), baseline, baseline,
                                   config.ladder.games, config.run.seed + 7 * generation, std::nullopt);
    log.info("ladder {} vs {}: {} - {} - {}", model, baseline, r.first_wins, r.second_wins, r.draws);
    dir.record_match(generation, r, "ladder");
  }
}

void update_ratings_and_plots(const RunDirectory& dir, spdlog::logger& log) {
  ratings_table(dir);
  if (!dir.plot()) log.warn("plots: gnuplot failed, see {}/plots/gnuplot.log", dir.root());
}

}  // namespace

std::string network_player_spec(const RunConfig& config, const std::string& model_path, int visits) {
  return fmt::format("nn:model={},visits={},{}", model_path, visits, inference_spec(config.inference));
}

void gate_continuously(const RunConfig& config, const RunDirectory& dir, const std::function<bool()>& stopped,
                       spdlog::logger& log) {
  const SteadyClock::time_point start = SteadyClock::now();
  TimeShare share(config.gating.time_share);
  auto play = [&](const std::function<void()>& matches) {
    const SteadyClock::time_point begin = SteadyClock::now();
    matches();
    share.add_busy(seconds_since(begin));
  };
  int passed_over = 0;  // candidates below this one were gated or passed over
  while (!stopped()) {
    if (share.rest(seconds_since(start)) > 0) {
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
    play([&] { play_ladder(config, dir, log); });
    const int newest = dir.newest_model().value_or(0);
    const std::optional<bool> verdict = newest > 0 ? dir.gating_verdict(generation_name(newest)) : std::nullopt;
    if (newest > 0 && !verdict) {
      for (int g = std::max(passed_over, 1); g < newest; ++g)
        if (!dir.gating_verdict(generation_name(g))) log.info("gating: {} passed over, {} is newer", generation_name(g), generation_name(newest));
      passed_over = newest;
      play([&] {
        gate(config, dir, newest, log);
        play_ladder(config, dir, log);
      });
      update_ratings_and_plots(dir, log);
    } else if (newest >= config.run.max_generations) {
      return;  // the last candidate is decided
    } else {
      std::this_thread::sleep_for(kPollInterval);
    }
  }
}

std::string ratings_table(const RunDirectory& dir) {
  const auto matches = dir.matches();
  if (matches.empty()) return "";
  bool has_random = false;
  for (const auto& m : matches) has_random |= m.first == "random" || m.second == "random";
  const auto ratings = fit_ratings(matches, has_random ? "random" : matches.front().first);
  dir.write_ratings(ratings);
  std::string table = fmt::format("{:<34} {:>8} {:>8} {:>6}\n", "player", "elo", "+/-", "games");
  for (const Rating& r : ratings) table += fmt::format("{:<34} {:>8.0f} {:>8.0f} {:>6}\n", r.name, r.elo, r.error95, r.games);
  return table;
}

}  // namespace ataxx
