// The template definitions of mcts/search_threads.h: included by search_threads.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "mcts/search_threads.h"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ataxx {
namespace {

template <typename G>
class SharedTree {
 public:
  SharedTree(BasicSearch<G>& search, BasicEvaluator<G>& evaluator) : search_(search), evaluator_(evaluator) {}

  // One thread's rounds until the search is done or a thread failed.
  void work(const std::function<void()>& after_round) {
    typename BasicSearch<G>::Round round;
    std::vector<BasicEvalRequest<G>> requests;
    std::unique_lock lock(mutex_);
    while (!error_ && !search_.done()) {
      requests.clear();
      search_.collect_leaves(round, requests);
      if (requests.empty()) {
        // Terminal leaves only, backed up already, or a collision with another thread's leaf:
        // then nothing can be selected until a round in flight comes back.
        const std::uint64_t applied = rounds_applied_;
        if (rounds_in_flight_ > 0) round_back_.wait(lock, [&] { return rounds_applied_ != applied || error_; });
        continue;
      }
      ++rounds_in_flight_;
      lock.unlock();
      std::exception_ptr failure;
      try {
        evaluator_.evaluate(requests);
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      --rounds_in_flight_;
      if (failure) {
        search_.discard_pending(round);
        if (!error_) error_ = failure;
      } else {
        search_.apply_evaluations(round);
      }
      ++rounds_applied_;
      round_back_.notify_all();
      if (after_round && !error_) after_round();
    }
  }

  void rethrow_error() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  BasicSearch<G>& search_;
  BasicEvaluator<G>& evaluator_;
  std::mutex mutex_;  // guards the search and everything below
  std::condition_variable round_back_;
  int rounds_in_flight_ = 0;
  std::uint64_t rounds_applied_ = 0;
  std::exception_ptr error_;
};

}  // namespace

template <typename G>
void run_search_threads(BasicSearch<std::type_identity_t<G>>& search, BasicEvaluator<G>& evaluator, int threads,
                        const std::function<void()>& after_round) {
  if (threads <= 1) {
    BasicSearch<G>* one[] = {&search};
    run_searches<G>(one, evaluator, after_round);
    return;
  }
  search.begin();
  SharedTree<G> tree(search, evaluator);
  {
    std::vector<std::jthread> helpers;
    for (int i = 1; i < threads; ++i) helpers.emplace_back([&tree] { tree.work({}); });
    tree.work(after_round);
  }
  tree.rethrow_error();
}

}  // namespace ataxx
