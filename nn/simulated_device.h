// A stand-in for an accelerator, to measure on a machine without one how well the CPU side of
// self-play keeps a fast device fed. Its model of a GPU: batches run one at a time (one
// queue), each taking launch_us + n * position_ns of wall time, during which the device needs no
// CPU (the server thread sleeps). It answers uniform priors and an even value. Figures taken with
// it are simulated and must be labelled so.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "nn/batched_evaluator.h"

namespace ataxx {

// The defaults are an estimate, not a measurement, for a 6x64 network in bf16 on an H100: about
// 50 MFLOP a position at a realistic 200 TFLOP/s for such small convolutions, and some 30
// kernel launches, copies and a sync a batch. Replace them with figures from a real run.
struct SimulatedDeviceModel {
  double launch_us = 100;    // fixed cost of a batch: launches, copies, the sync
  double position_ns = 250;  // cost of each position in it
  std::string describe() const;
};

class SimulatedDevice final : public BatchDevice {
 public:
  SimulatedDevice(const SimulatedDeviceModel& model, int max_batch, const Encoding& encoding = BoardSet{}.encoding());
  Output run(int thread, const float* inputs, int n) override;
  std::uint64_t generation() const override { return 1; }
  std::string model_name() const override { return "simulated"; }
  Encoding encoding() const override { return encoding_; }
  const SimulatedDeviceModel& model() const { return model_; }

 private:
  SimulatedDeviceModel model_;
  Encoding encoding_;
  std::mutex queue_;  // one batch on the device at a time
  std::chrono::steady_clock::time_point free_at_{};
  const std::vector<float> zeros_;  // max_batch rows of logits: uniform priors
  std::vector<float> wdl_;          // max_batch rows of 0, 1, 0
};

}  // namespace ataxx
