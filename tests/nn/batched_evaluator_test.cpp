#include "nn/batched_evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include "match/openings.h"
#include "games/ataxx/encoding.h"
#include "nn/simulated_device.h"

namespace ataxx {
namespace {

// Answers each position with its own number of pieces (from the first input plane) as the win
// probability, and records the size of every batch it runs.
class CountingDevice final : public BatchDevice {
 public:
  Output run(int thread, const float* inputs, int n) override {
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
      threads.insert(thread);
      most_running = std::max(most_running, running);
    }
    if (fail) throw std::runtime_error("device lost");
    return {.policy_logits = logits.data(), .wdl = rows->data(), .owner = rows, .generation = 1};
  }
  std::uint64_t generation() const override { return 1; }
  std::string model_name() const override { return "counting"; }
  NetworkIo io() const override { return io_; }

  std::mutex mutex;
  std::vector<int> batches;
  std::vector<std::thread::id> runners;  // the thread that ran each batch
  std::set<int> threads;                 // the `thread` arguments run was given
  std::atomic<int> running_now{0};
  int most_running = 0;                  // batches on the device at once, at most
  bool hold_each_batch = false;          // 2 ms a batch: callers at once would overlap
  bool fail = false;
  const NetworkIo io_ = AtaxxGame::Encoder().io();
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
  EXPECT_THROW(BatchedEvaluator(device, GameEncoder<AtaxxGame>{}, {.threads = 0, .caller_lanes = 0}), std::invalid_argument);
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

TEST(BatchedEvaluator, WithNoServerThreadsCallersRunInLanesAsManyAtOnceAsThereAreLanes) {
  auto device = std::make_shared<CountingDevice>();
  device->hold_each_batch = true;
  BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {.max_batch = 64, .threads = 0, .caller_lanes = 2});
  std::atomic<int> wrong{0};
  evaluate_at_once(evaluator, 6, 5, [&](BatchedEvaluator& e, const std::vector<EvalRequest>& requests, std::vector<Leaf>& leaves) {
    for (int round = 0; round < 3; ++round) {
      e.evaluate(requests);
      for (const Leaf& leaf : leaves)
        wrong += leaf.value.win != popcount(leaf.position.pieces(leaf.position.side_to_move())) / 100.0f;
    }
  });
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(device->batches, std::vector<int>(18, 5));  // each caller's own, never merged
  EXPECT_EQ(device->most_running, 2);                   // two lanes: two at once, never three
  EXPECT_EQ(device->threads, (std::set<int>{0, 1}));    // each batch in its lane
}

// A device whose answers turn with the board, as a trained net's should: a move's logit is the
// number of enemy pieces next to its destination (a half for each), plus one for a clone; the win
// probability is the mover's share of the pieces. It records every input it is given.
class EquivariantDevice final : public BatchDevice {
 public:
  Output run(int, const float* inputs, int n) override {
    const int canvas = io_.canvas, area = io_.area();
    auto out = std::make_shared<std::vector<float>>(static_cast<std::size_t>(n) * (io_.policy_size() + 3), 0.0f);
    float* wdl = out->data() + static_cast<std::size_t>(n) * io_.policy_size();
    for (int i = 0; i < n; ++i) {
      const float* planes = inputs + static_cast<std::size_t>(i) * io_.input_size();
      seen.emplace_back(planes, planes + io_.input_size());
      const float* theirs = planes + area;
      float* logits = out->data() + static_cast<std::size_t>(i) * io_.policy_size();
      for (int cell = 0; cell < area; ++cell) {
        float enemies = 0;
        for (int dr = -1; dr <= 1; ++dr)
          for (int dc = -1; dc <= 1; ++dc) {
            const int r = cell / canvas + dr, c = cell % canvas + dc;
            if (r >= 0 && r < canvas && c >= 0 && c < canvas) enemies += theirs[r * canvas + c];
          }
        for (int type = 0; type < io_.move_planes; ++type) logits[type * area + cell] = 0.5f * enemies + (type == 0);
      }
      const float own = std::accumulate(planes, planes + area, 0.0f);
      wdl[i * 3] = own / (own + std::accumulate(theirs, theirs + area, 0.0f));
    }
    return {.policy_logits = out->data(), .wdl = wdl, .owner = out, .generation = 1};
  }
  std::uint64_t generation() const override { return 1; }
  std::string model_name() const override { return "equivariant"; }
  NetworkIo io() const override { return io_; }

  std::vector<std::vector<float>> seen;
  const NetworkIo io_ = AtaxxGame::Encoder().io();
};

// Each position goes to the device under a random symmetry, and its answer comes back to the
// position's own moves: a net that turns with the board gives the same priors and value either way.
TEST(BatchedEvaluator, ARandomSymmetryLeavesTheAnswersOfAnEquivariantNetAsTheyAre) {
  const std::vector<std::string> fens = {"x1o4/2x4/1o2-2/3x3/7/5o1/o5x x 0 1", "xo5/o1x4/7/2-1-2/4o2/6x/o4xx o 0 1"};
  for (const std::string& fen : fens) {
    auto device = std::make_shared<EquivariantDevice>();
    BatchingOptions plain{8, 0, 0, 0}, randomised = plain;
    randomised.random_symmetry = true;
    BatchedEvaluator as_is(device, GameEncoder<AtaxxGame>{}, plain), turned(device, GameEncoder<AtaxxGame>{}, randomised);
    std::vector<Leaf> expected(1);
    expected[0].position = Position::from_fen(fen);
    as_is.evaluate(requests_for(expected));
    const std::set<float> distinct_priors(expected[0].priors.begin(), expected[0].priors.end());
    ASSERT_GT(distinct_priors.size(), 2U) << fen;  // the check below can tell moves apart
    const std::size_t plain_inputs = device->seen.size();
    for (int i = 0; i < 16; ++i) {
      std::vector<Leaf> leaves(1);
      leaves[0].position = expected[0].position;
      turned.evaluate(requests_for(leaves));
      for (std::size_t m = 0; m < leaves[0].priors.size(); ++m) EXPECT_NEAR(leaves[0].priors[m], expected[0].priors[m], 1e-6f) << fen;
      EXPECT_FLOAT_EQ(leaves[0].value.win, expected[0].value.win) << fen;
    }
    const std::set<std::vector<float>> inputs(device->seen.begin() + plain_inputs, device->seen.end());
    EXPECT_GT(inputs.size(), 3U) << fen;  // 16 draws from the 8 symmetries of an asymmetric position
  }
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
  auto device = std::make_shared<SimulatedDevice>(SimulatedDeviceModel{5, 10}, 8, SchataxxGame::Encoder::io());
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
  auto device = std::make_shared<SimulatedDevice>(SimulatedDeviceModel{5, 10}, 8, SchataxxGame::Encoder::io());
  try {
    BatchedEvaluator evaluator(device, GameEncoder<AtaxxGame>{}, {8, 1000, 1, 0});
    FAIL() << "an Ataxx evaluator took a Schataxx device";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("takes " + std::to_string(SchataxxGame::Encoder::io().input_size()) +
                                          " inputs and gives 4417 policy entries; the game's encoding has 294 and 932"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ataxx
