#include "nn/simulated_device.h"

#include <fmt/format.h>

#include <stdexcept>
#include <thread>


namespace ataxx {

std::string SimulatedDeviceModel::describe() const {
  return fmt::format("simulated device: {:.0f} us + {:.0f} ns per position per batch", launch_us, position_ns);
}

SimulatedDevice::SimulatedDevice(const SimulatedDeviceModel& model, int max_batch, const NetworkIo& io)
    : model_(model), io_(io), zeros_(static_cast<std::size_t>(max_batch) * io.policy_size(), 0.0f) {
  for (int i = 0; i < max_batch; ++i) wdl_.insert(wdl_.end(), {0.0f, 1.0f, 0.0f});
}

BatchDevice::Output SimulatedDevice::run(int, const float*, int n) {
  using namespace std::chrono;
  const auto cost = duration_cast<steady_clock::duration>(duration<double, std::micro>(model_.launch_us + n * model_.position_ns / 1000));
  if (static_cast<std::size_t>(n) * 3 > wdl_.size()) throw std::invalid_argument("simulated device: batch too large");
  std::unique_lock lock(queue_);
  // The batch starts when the device is free and the launch reaches it.
  free_at_ = std::max(free_at_, steady_clock::now()) + cost;
  const auto done = free_at_;
  lock.unlock();
  std::this_thread::sleep_until(done);
  return {.policy_logits = zeros_.data(), .wdl = wdl_.data(), .owner = {}, .generation = 1};
}

}  // namespace ataxx
