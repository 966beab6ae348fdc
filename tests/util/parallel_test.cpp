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

TEST(WorkerTeam, RunsEachPartOnceOnItsOwnThreadJobAfterJob) {
  WorkerTeam team(3);
  ASSERT_EQ(team.size(), 3);
  for (int job = 0; job < 200; ++job) {
    const int parts = 1 + job % 3;
    std::vector<std::atomic<int>> runs(3);
    std::vector<std::thread::id> ids(3);
    team.run(parts, [&](int i) {
      ++runs[i];
      ids[i] = std::this_thread::get_id();
    });
    for (int i = 0; i < 3; ++i) ASSERT_EQ(runs[i], i < parts ? 1 : 0) << "job " << job << " part " << i;
    EXPECT_EQ(ids[0], std::this_thread::get_id());
    for (int i = 1; i < parts; ++i) EXPECT_NE(ids[i], ids[0]);
  }
}

TEST(WorkerTeam, AFailingPartReachesTheCallerAndTheTeamGoesOn) {
  WorkerTeam team(2);
  EXPECT_THROW(team.run(2, [](int i) {
    if (i == 1) throw std::runtime_error("part 1 broke");
  }),
               std::runtime_error);
  std::atomic<int> sum{0};
  team.run(2, [&](int i) { sum += i + 1; });
  EXPECT_EQ(sum, 3);
  EXPECT_THROW(team.run(3, [](int) {}), std::invalid_argument);
}

}  // namespace
}  // namespace ataxx
