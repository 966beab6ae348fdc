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

}  // namespace
}  // namespace ataxx
