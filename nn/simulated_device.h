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

// The defaults are fitted to `bench nn`'s raw forward of a 6x64 network in bf16 on an H100
// (2026-11-23, LibTorch 2.11): about 1.2 ms a batch of launches, copies and the sync (a batch of 1
// took 1.26 ms), and 0.7 us a position (512: 1.71 ms, 2048: 2.32 ms, 4096: 4.09 ms).
struct SimulatedDeviceModel {
  double launch_us = 1200;   // fixed cost of a batch: launches, copies, the sync
  double position_ns = 700;  // cost of each position in it
  std::string describe() const;
};

class SimulatedDevice final : public BatchDevice {
 public:
  SimulatedDevice(const SimulatedDeviceModel& model, int max_batch, const NetworkIo& io = default_network_io());
  Output run(int thread, const float* inputs, int n) override;
  std::uint64_t generation() const override { return 1; }
  std::string model_name() const override { return "simulated"; }
  NetworkIo io() const override { return io_; }
  const SimulatedDeviceModel& model() const { return model_; }

 private:
  SimulatedDeviceModel model_;
  NetworkIo io_;
  std::mutex queue_;  // one batch on the device at a time
  std::chrono::steady_clock::time_point free_at_{};
  const std::vector<float> zeros_;  // max_batch rows of logits: uniform priors
  std::vector<float> wdl_;          // max_batch rows of 0, 1, 0
};

}  // namespace ataxx
