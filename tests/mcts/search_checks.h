// What the search tests share: parameters of a given number of visits, and the check that a
// finished search's visits add up.
#pragma once

#include <gtest/gtest.h>

#include <numeric>

#include "mcts/search.h"

namespace ataxx {

inline SearchParams with_visits(int visits) {
  SearchParams params;
  params.visits = visits;
  return params;
}

inline void expect_consistent(const SearchResult& result, int visits) {
  EXPECT_EQ(result.total_visits, visits);
  EXPECT_EQ(std::accumulate(result.visits.begin(), result.visits.end(), 0), visits - 1);  // the root's own
}

}  // namespace ataxx
