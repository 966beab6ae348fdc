#include "mcts/search_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "mcts/simple_evaluators.h"
#include "tests/mcts/search_checks.h"

namespace ataxx {
namespace {

// Uniform priors and a draw, each batch held 1 ms (threads in the search overlap there, as on
// their own cores); counts the calls that overlap and the threads that called. Fails every call
// from the fail_from-th on.
class SlowEvaluator final : public Evaluator {
 public:
  explicit SlowEvaluator(int fail_from = 0) : fail_from_(fail_from) {}
  void evaluate(std::span<const EvalRequest> batch) override {
    const int now = ++running_;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    {
      std::lock_guard lock(mutex_);
      most_running = std::max(most_running, now);
      callers.insert(std::this_thread::get_id());
    }
    --running_;
    if (fail_from_ > 0 && ++calls_ >= fail_from_) throw std::runtime_error("device lost");
    inner_.evaluate(batch);
  }

  int most_running = 0;
  std::set<std::thread::id> callers;

 private:
  const int fail_from_;
  std::atomic<int> running_{0};
  std::atomic<int> calls_{0};
  std::mutex mutex_;
  UniformEvaluator inner_;
};

TEST(SearchThreads, ThreadsShareOneTreeAndItsVisitsAddUp) {
  Search search(with_visits(600), 1);
  SlowEvaluator evaluator;
  int reports = 0;
  run_search_threads<AtaxxGame>(search, evaluator, 4, [&] { ++reports; });
  expect_consistent(search.result(), 600);
  EXPECT_GE(evaluator.most_running, 2);  // rounds of several threads evaluated at once
  EXPECT_GE(evaluator.callers.size(), 2U);
  EXPECT_GT(reports, 0);
  // The tree goes on to the next move as one search's does.
  search.advance(search.result().best_move());
  const int kept = search.root_visits();
  search.set_visits(kept + 200);
  run_search_threads<AtaxxGame>(search, evaluator, 3);
  expect_consistent(search.result(), kept + 200);
}

TEST(SearchThreads, OneThreadSearchesAsRunSearchDoes) {
  SearchParams params = with_visits(300);
  params.dirichlet_weight = 0.25f;  // seeded noise: the same seed, the same search
  Search one(params, 7), other(params, 7);
  UniformEvaluator evaluator;
  run_search_threads<AtaxxGame>(one, evaluator, 1);
  EXPECT_EQ(one.result().visits, run_search(other, evaluator).visits);
}

TEST(SearchThreads, AnEvaluatorErrorReachesTheCallerAndTheSearchStaysUsable) {
  Search search(with_visits(400), 1);
  SlowEvaluator failing(5);
  EXPECT_THROW(run_search_threads<AtaxxGame>(search, failing, 3), std::runtime_error);
  // Every thread's leaves were taken back or backed up: the tree reaches its visits exactly.
  SlowEvaluator working;
  run_search_threads<AtaxxGame>(search, working, 3);
  expect_consistent(search.result(), 400);
}

TEST(SearchThreads, ManyTerminalLeavesAndCollisionsStillEndAtTheVisits) {
  // Three empty cells: most leaves are finished games, backed up without the evaluator, and the
  // threads' rounds collide on the few positions left to evaluate.
  Search search(with_visits(3000), 1);
  search.set_root(Position::from_fen("xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/oooo3/ooooooo x 0 1"));
  SlowEvaluator evaluator;
  run_search_threads<AtaxxGame>(search, evaluator, 4);
  expect_consistent(search.result(), 3000);
}

TEST(SearchThreads, TheirTreeHoldsNoMoreMemoryThanItsBound) {
  // Each thread's round is made room for with the rounds in flight on the others; with
  // transpositions, in the map of positions too.
  for (const bool transpositions : {false, true}) {
    SlowEvaluator evaluator;
    SearchParams params = with_visits(1'000'000);
    params.max_tree_bytes = std::size_t{2} << 20;
    params.transpositions = transpositions;
    Search search(params, 1);
    run_search_threads<AtaxxGame>(search, evaluator, 4);
    EXPECT_LE(search.memory_bytes(), params.max_tree_bytes) << transpositions;
    EXPECT_GE(search.permille_full(), 700) << transpositions;
  }
}

TEST(SearchThreads, AStopFlagEndsEveryThread) {
  Search search(with_visits(1'000'000'000), 1);
  std::atomic<bool> stop{true};
  search.set_stop_flag(&stop);
  SlowEvaluator evaluator;
  run_search_threads<AtaxxGame>(search, evaluator, 4);
  EXPECT_GE(search.root_visits(), 1);
  EXPECT_LT(search.root_visits(), 100);  // each thread's round in flight, no more
}

}  // namespace
}  // namespace ataxx
