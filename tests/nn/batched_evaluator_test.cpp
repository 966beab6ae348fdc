#include "nn/batched_evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <mutex>
#include <numeric>
#include <thread>

#include "match/openings.h"
#include "nn/encoding.h"
#include "nn/simulated_device.h"

namespace ataxx {
namespace {

// Answers each position with its own number of pieces (from the first input plane) as the win
// probability, and records the size of every batch it runs.
class CountingDevice final : public BatchDevice {
 public:
  Output run(int, const float* inputs, int n) override {
    const int running = ++running_now;
    if (hold_each_batch) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --running_now;
    auto rows = std::make_shared<std::vector<float>>(static_cast<std::size_t>(n) * 3);
    for (int i = 0; i < n; ++i) {
      const float* own = inputs + static_cast<std::size_t>(i) * io_.input_size();
      (*rows)[i * 3] = std::accumulate(own, own + io_.area(), 0.0f) / 100;
    }
    {
      std::lock_guard lock(mutex);
      batches.push_back(n);
      runners.push_back(std::this_thread::get_id());
      most_running = std::max(most_running, running);
    }
    if (fail) throw std::runtime_error("device lost");
    return {logits.data(), rows->data(), rows, 1};
  }
  std::uint64_t generation() const override { return 1; }
  std::string model_name() const override { return "counting"; }
  NetworkIo io() const override { return io_; }

  std::mutex mutex;
  std::vector<int> batches;
  std::vector<std::thread::id> runners;  // the thread that ran each batch
  std::atomic<int> running_now{0};
  int most_running = 0;                  // batches on the device at once, at most
  bool hold_each_batch = false;          // 2 ms a batch: callers at once would overlap
  bool fail = false;
  const NetworkIo io_ = kAtaxxIo;
  std::vector<float> logits = std::vector<float>(4096 * io_.policy_size(), 0.0f);
};

struct Leaf {
  Position position;
  MoveList moves;
  std::vector<float> priors;
  Wdl value;
};

std::vector<EvalRequest> requests_for(std::vector<Leaf>& leaves) {
  std::vector<EvalRequest> requests;
  for (Leaf& leaf : leaves) {
    leaf.position.generate_moves(leaf.moves);
    // Values no evaluation gives: a check of the answer fails if nothing was evaluated.
    leaf.priors.assign(leaf.moves.size(), -1.0f);
    leaf.value = Wdl{.win = -1.0f, .draw = -1.0f, .loss = -1.0f};
    requests.push_back({&leaf.position, std::span<const Move>(leaf.moves.begin(), leaf.moves.size()), leaf.priors, &leaf.value});
  }
  return requests;
}

// callers threads at once, each with `leaves` positions from the openings.
template <typename Check>
void evaluate_at_once(BatchedEvaluator& evaluator, int callers, int leaves, Check check) {
  const auto openings = default_openings();
  std::barrier start(callers);
  std::vector<std::thread> threads;
  for (int c = 0; c < callers; ++c)
    threads.emplace_back([&, c] {
      std::vector<Leaf> mine(leaves);
      for (int i = 0; i < leaves; ++i) mine[i].position = openings[(c * leaves + i) % openings.size()];
      const auto requests = requests_for(mine);
      start.arrive_and_wait();
      check(evaluator, requests, mine);
    });
  for (auto& t : threads) t.join();
}

TEST(BatchedEvaluator, EachCallerGetsItsOwnRows) {
  auto device = std::make_shared<CountingDevice>();
  BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {64, 20'000, 2, 0});
  std::atomic<int> wrong{0};
  evaluate_at_once(evaluator, 8, 5, [&](BatchedEvaluator& e, const std::vector<EvalRequest>& requests, std::vector<Leaf>& leaves) {
    e.evaluate(requests);
    for (const Leaf& leaf : leaves) {
      const float own = popcount(leaf.position.pieces(leaf.position.side_to_move())) / 100.0f;
      wrong += leaf.value.win != own;
      for (float p : leaf.priors) wrong += std::abs(p - 1.0f / leaf.priors.size()) > 1e-6f;  // equal logits
    }
  });
  EXPECT_EQ(wrong, 0);
  const InferenceStats stats = evaluator.stats();
  EXPECT_EQ(stats.positions, 40U);
  EXPECT_GT(stats.busy_seconds, 0.0);
  EXPECT_LE(stats.busy_seconds, stats.seconds);
}

TEST(BatchedEvaluator, OneServerThreadFormsABatchAtATime) {
  // Four server threads, eight callers of 8 positions each, all at once: the first thread to
  // start a batch takes every job until 64 positions, and no other thread takes part of it.
  auto device = std::make_shared<CountingDevice>();
  BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {64, 5'000'000, 4, 0});
  evaluate_at_once(evaluator, 8, 8, [](BatchedEvaluator& e, const std::vector<EvalRequest>& requests, std::vector<Leaf>&) {
    e.evaluate(requests);
  });
  EXPECT_EQ(device->batches, std::vector<int>{64});
}

TEST(BatchedEvaluator, ACallLargerThanMaxBatchGoesAsSeveralBatchesThatFitIt) {
  // A worker of 256 games x 4 leaves sends 1,024 positions in one call; the simulated device,
  // whose buffers hold max_batch rows, threw on such a batch and aborted `bench selfplay`.
  auto device = std::make_shared<CountingDevice>();
  BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {16, 1000, 2, 0});
  std::atomic<int> wrong{0};
  evaluate_at_once(evaluator, 2, 40, [&](BatchedEvaluator& e, const std::vector<EvalRequest>& requests, std::vector<Leaf>& leaves) {
    e.evaluate(requests);
    for (const Leaf& leaf : leaves)
      wrong += leaf.value.win != popcount(leaf.position.pieces(leaf.position.side_to_move())) / 100.0f;
  });
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(std::accumulate(device->batches.begin(), device->batches.end(), 0), 80);
  EXPECT_LE(*std::max_element(device->batches.begin(), device->batches.end()), 16);

  auto simulated = std::make_shared<SimulatedDevice>(SimulatedDeviceModel{5, 10}, 16);
  BatchedEvaluator on_simulated(simulated, GameEncoder<AtaxxGame>{}, {16, 1000, 1, 0});
  std::vector<Leaf> leaves(40);
  EXPECT_NO_THROW(on_simulated.evaluate(requests_for(leaves)));
  for (const Leaf& leaf : leaves) {
    EXPECT_FLOAT_EQ(leaf.value.draw, 1.0f);
    for (float p : leaf.priors) EXPECT_FLOAT_EQ(p, 1.0f / leaf.priors.size());
  }
}

TEST(BatchedEvaluator, ADeviceErrorReachesEveryCallerOfTheBatch) {
  auto device = std::make_shared<CountingDevice>();
  device->fail = true;
  BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {16, 5'000'000, 1, 0});
  std::atomic<int> errors{0};
  evaluate_at_once(evaluator, 4, 4, [&](BatchedEvaluator& e, const std::vector<EvalRequest>& requests, std::vector<Leaf>&) {
    try {
      e.evaluate(requests);
    } catch (const std::runtime_error& error) {
      errors += std::string(error.what()) == "device lost";
    }
  });
  EXPECT_EQ(errors, 4);
}

TEST(BatchedEvaluator, RejectsBadOptions) {
  auto device = std::make_shared<CountingDevice>();
  EXPECT_THROW(BatchedEvaluator(device, GameEncoder<AtaxxGame>{}, {0, 1000, 1, 0}), std::invalid_argument);
  EXPECT_THROW(BatchedEvaluator(device, GameEncoder<AtaxxGame>{}, {8, 1000, -1, 0}), std::invalid_argument);
}

TEST(BatchedEvaluator, WithNoServerThreadsEachCallerRunsItsOwnBatchesOneAtATime) {
  auto device = std::make_shared<CountingDevice>();
  device->hold_each_batch = true;
  BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {64, 20'000, 0, 0});
  std::atomic<int> wrong{0};
  std::mutex callers_mutex;
  std::vector<std::thread::id> callers;
  evaluate_at_once(evaluator, 4, 5, [&](BatchedEvaluator& e, const std::vector<EvalRequest>& requests, std::vector<Leaf>& leaves) {
    e.evaluate(requests);
    for (const Leaf& leaf : leaves)
      wrong += leaf.value.win != popcount(leaf.position.pieces(leaf.position.side_to_move())) / 100.0f;
    std::lock_guard lock(callers_mutex);
    callers.push_back(std::this_thread::get_id());
  });
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(device->batches, std::vector<int>(4, 5));  // each caller's own, never merged
  std::sort(callers.begin(), callers.end());
  std::sort(device->runners.begin(), device->runners.end());
  EXPECT_EQ(device->runners, callers);  // each ran on its caller's thread
  EXPECT_EQ(device->most_running, 1);
  const InferenceStats stats = evaluator.stats();
  EXPECT_EQ(stats.positions, 20U);
  EXPECT_EQ(stats.batches, 4U);
  EXPECT_GE(stats.busy_seconds, 4 * 0.002);  // each batch held the device 2 ms
  EXPECT_LE(stats.busy_seconds, stats.seconds);

  device->fail = true;
  std::vector<Leaf> leaves(2);
  EXPECT_THROW(evaluator.evaluate(requests_for(leaves)), std::runtime_error);
}

TEST(SimulatedDevice, AnswersUniformPriorsAndAnEvenValue) {
  auto device = std::make_shared<SimulatedDevice>(SimulatedDeviceModel{5, 10}, 32);
  BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {32, 1000, 2, 0});
  std::vector<Leaf> leaves(3);
  leaves[1].position = Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1");
  const auto requests = requests_for(leaves);
  evaluator.evaluate(requests);
  for (const Leaf& leaf : leaves) {
    EXPECT_FLOAT_EQ(leaf.value.draw, 1.0f);
    for (float p : leaf.priors) EXPECT_FLOAT_EQ(p, 1.0f / leaf.priors.size());
  }
  EXPECT_EQ(evaluator.model_name(), "simulated");
  std::vector<float> too_many(33 * device->io().input_size());
  EXPECT_THROW(device->run(0, too_many.data(), 33), std::invalid_argument);
}

// The same batching for Schataxx's positions: its planes in, its 4,417 policy entries out.
TEST(SimulatedDevice, AnswersSchataxxPositionsThroughTheSameBatching) {
  auto device = std::make_shared<SimulatedDevice>(SimulatedDeviceModel{5, 10}, 8, kSchataxxIo);
  BasicBatchedEvaluator<SchataxxGame> evaluator(device, GameEncoder<SchataxxGame>{}, {8, 1000, 1, 0});
  const schataxx::Position pos = schataxx::Position::startpos();
  schataxx::MoveList moves;
  pos.generate_moves(moves);
  std::vector<float> priors(moves.size(), -1.0f);
  Wdl value{-1, -1, -1};
  const BasicEvalRequest<SchataxxGame> request{&pos, {moves.begin(), static_cast<std::size_t>(moves.size())}, priors, &value};
  evaluator.evaluate({&request, 1});
  EXPECT_FLOAT_EQ(value.draw, 1.0f);
  for (float p : priors) EXPECT_FLOAT_EQ(p, 1.0f / moves.size());
}

TEST(BatchedEvaluator, RefusesADeviceOfAnotherGamesPlanes) {
  auto device = std::make_shared<SimulatedDevice>(SimulatedDeviceModel{5, 10}, 8, kSchataxxIo);
  try {
    BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {8, 1000, 1, 0});
    FAIL() << "an Ataxx evaluator took a Schataxx device";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("takes " + std::to_string(kSchataxxIo.input_size()) +
                                          " inputs and gives 4417 policy entries; the game's encoding has 294 and 932"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ataxx
