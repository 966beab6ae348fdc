// Wall-time measurement shared by the run's loops and the benchmarks.
#pragma once

#include <chrono>

namespace ataxx {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace ataxx
