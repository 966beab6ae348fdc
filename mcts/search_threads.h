// One search on several threads that share its tree, as lc0's search threads: each thread
// selects its own round of leaves under the tree's lock, has them evaluated outside it (on its
// own core, where the evaluator runs each caller's batch on the caller's thread), and backs them
// up under the lock again. Virtual losses keep the threads' rounds apart; the tree itself is a
// small share of the time (docs/experiments.md), so one lock serves a few threads.
#pragma once

#include <functional>
#include <type_traits>

#include "mcts/search.h"

namespace ataxx {

// Runs the search to its limit (begin() first) on `threads` threads, the caller one of them;
// with one thread, as run_searches does. after_round, when given, runs on the calling thread
// under the tree's lock after its own rounds (progress reports may read the search). An
// evaluator error ends every thread, their leaves are taken back, and it goes on to the caller.
template <typename G>
void run_search_threads(BasicSearch<std::type_identity_t<G>>& search, BasicEvaluator<G>& evaluator, int threads,
                        const std::function<void()>& after_round = {});

}  // namespace ataxx
