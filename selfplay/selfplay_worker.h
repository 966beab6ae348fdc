// Self-play: one worker thread plays many games at once, one search tree per game, all trees'
// leaves going to the evaluator in shared batches. Full searches (with root noise) give policy
// targets; fast searches only choose the move (playout cap randomisation, as in KataGo).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/run_config.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"
#include "selfplay/training_data.h"

namespace ataxx {

struct SelfPlayStats {
  int games = 0;
  int plies = 0;
  int draws = 0;
  int resigned = 0;
  int no_resign_games = 0;
  int would_resign = 0;           // no-resign games where a side fell below the threshold
  int false_resignations = 0;     // ... and that side did not lose
  std::uint64_t simulations = 0;  // playouts added by the searches (visits reused from a previous move not counted)
  void add(const SelfPlayStats& other);
  double false_resignation_rate() const { return would_resign ? double(false_resignations) / would_resign : 0.0; }
};

template <typename G>
struct BasicSelfPlayBatch {
  int games = 0;
  int plies = 0;  // of its games together
  int draws = 0;
  std::vector<BasicTrainingSample<G>> samples;
};
using SelfPlayBatch = BasicSelfPlayBatch<DefaultGame>;

// A full search's sample: its policy target as visit counts, scaled down (never clipped) so that
// the largest fits a chunk's kMaxRecordedVisits, and every visited move keeps at least one.
template <typename G>
BasicTrainingSample<G> policy_sample(const typename G::Position& pos, const BasicSearchResult<G>& result);

// Where a run's games start: a start position (a board's, or the run's variant's) with its share
// of games and its opening suite.
template <typename G>
struct SelfPlayStart {
  std::string name;  // a board's ("7x7") or the variant's
  double share = 1.0;
  typename G::Position start;
  std::vector<typename G::Position> openings;
};

template <typename G>
class BasicSelfPlayWorker {
 public:
  // Each game draws a start by share, then starts from one of its openings (with probability
  // selfplay.opening_share) or from its start position. Throws std::invalid_argument for an
  // opening that is already over under the run's rules.
  BasicSelfPlayWorker(const RunConfig& config, std::vector<SelfPlayStart<G>> starts, std::uint64_t seed);
  // Plays until `games_left` (shared by all workers) runs out or `stopped()` says so (then the
  // games in progress are dropped). Every games_per_chunk finished games, and at the end, hands a
  // batch to `emit`.
  SelfPlayStats run(BasicEvaluator<G>& evaluator, std::atomic<int>& games_left, const std::function<bool()>& stopped,
                    const std::function<void(BasicSelfPlayBatch<G>&&)>& emit);
  // Called with the game of the worker's first slot after each of its moves, for those who
  // watch self-play as it is played.
  using GameWatcher = std::function<void(const typename G::Game&)>;
  void watch_games(GameWatcher watcher) { watcher_ = std::move(watcher); }

 private:
  RunConfig config_;
  std::vector<SelfPlayStart<G>> starts_;
  std::uint64_t seed_;
  GameWatcher watcher_;
};
using SelfPlayWorker = BasicSelfPlayWorker<DefaultGame>;

// Plays `games` games on config.selfplay.threads workers sharing the evaluator (worker w seeded
// with seed + w); `emit` may be called from any of them at once, `watch` (when given) from the
// first worker's games (BasicSelfPlayWorker::watch_games). When a worker fails the others stop, and the error is rethrown
// as std::runtime_error naming the worker.
template <typename G>
SelfPlayStats play_selfplay_games(const RunConfig& config, const std::vector<SelfPlayStart<G>>& starts,
                                  std::uint64_t seed, BasicEvaluator<G>& evaluator, int games,
                                  const std::atomic<bool>& stop,
                                  const std::function<void(BasicSelfPlayBatch<G>&&)>& emit,
                                  const typename BasicSelfPlayWorker<G>::GameWatcher& watch = {});

}  // namespace ataxx
