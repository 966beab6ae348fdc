#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "trainer/trainer.h"

namespace ataxx {
namespace {

TEST(Trainer, RefusesADeviceItCannotUse) {
  RunConfig config;
  config.network = {1, 8};
  config.inference.device = "tpu";
  EXPECT_THROW(Trainer(config, "", ""), std::invalid_argument);
  config.inference.device = "cuda";
  if (!std::filesystem::exists("/dev/nvidia0")) {
    EXPECT_THROW(Trainer(config, "", ""), std::invalid_argument);
  }
  config.inference.device = "cpu";
  EXPECT_NO_THROW(Trainer(config, "", ""));
}

TEST(Trainer, LearningRateWarmsUpThenDropsLateInTheRun) {
  RunConfig::Training t;
  t.learning_rate = 0.02;
  t.warmup_steps = 100;
  t.lr_drop_at = 0.75;
  t.lr_drop_factor = 0.1;
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 0, 0.0), 0.0002);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 49, 0.1), 0.01);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 5000, 0.74), 0.02);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 5000, 0.75), 0.002);
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 5000, 1.0), 0.002);
  t.lr_drop_at = 1;  // never, even at the very end
  EXPECT_DOUBLE_EQ(scheduled_learning_rate(t, 5000, 1.0), 0.02);
}

}  // namespace
}  // namespace ataxx
