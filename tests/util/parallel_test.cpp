#include "util/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ataxx {
namespace {

TEST(RunFor, SetsStopOnceItsTimeHasPassed) {
  std::atomic<bool> stop{false};
  int polls = 0;
  run_for(0.05, stop, [&] {
    while (!stop) {
      ++polls;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  EXPECT_TRUE(stop);
  EXPECT_GT(polls, 0);
}

TEST(RunFor, ATaskThatThrowsEndsTheTimerAndReachesTheCaller) {
  // `bench selfplay` kept a plain std::thread sleeping here: an error in self-play destroyed it
  // joinable and the process died in std::terminate (or would have slept out the hour).
  std::atomic<bool> stop{false};
  EXPECT_THROW(run_for(3600, stop, [] { throw std::runtime_error("self-play failed"); }), std::runtime_error);
  EXPECT_TRUE(stop);
}

TEST(RunInParallel, RunsEveryBody) {
  std::atomic<int> sum{0};
  run_in_parallel(4, [&](int i) { sum += i + 1; });
  EXPECT_EQ(sum, 10);
}

TEST(RunInParallel, AFailureStopsTheOthersAndReachesTheCaller) {
  std::atomic<bool> stop{false};
  std::atomic<int> errors_seen{0};
  std::atomic<int> finished{0};
  auto body = [&](int i) {
    if (i == 2) throw std::runtime_error("worker 2 broke");
    while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ++finished;
  };
  try {
    run_in_parallel(4, body, [&] {
      ++errors_seen;
      stop = true;
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "worker 2 broke");
  }
  EXPECT_EQ(errors_seen, 1);
  EXPECT_EQ(finished, 3);  // every other thread ran to its end before the rethrow
}

}  // namespace
}  // namespace ataxx
