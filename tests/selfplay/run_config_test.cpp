#include <gtest/gtest.h>

#include <stdexcept>

#include "selfplay/run_config.h"

namespace ataxx {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    parse_run_config(yaml, "test.yaml");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(RunConfig, ShippedConfigsLoad) {
  for (const char* name : {"default", "tiny", "gpu"}) {
    const RunConfig config = load_run_config(std::string(ATAXX_SOURCE_DIR) + "/configs/" + name + ".yaml");
    EXPECT_GE(config.selfplay.games_per_generation, 1) << name;
  }
  EXPECT_EQ(load_run_config(std::string(ATAXX_SOURCE_DIR) + "/configs/tiny.yaml").network.blocks, 1);
}

TEST(RunConfig, ValuesOverrideDefaults) {
  const RunConfig c = parse_run_config("selfplay:\n  visits: 33\ntraining:\n  optimizer: adamw\ninference:\n  bf16: true\n", "t");
  EXPECT_EQ(c.selfplay.visits, 33);
  EXPECT_EQ(c.training.optimizer, "adamw");
  EXPECT_TRUE(c.inference.bf16);
  EXPECT_EQ(c.selfplay.fast_visits, RunConfig{}.selfplay.fast_visits);
}

TEST(RunConfig, ErrorsNameTheKey) {
  EXPECT_NE(error_of("selfplay:\n  visitz: 3\n").find("selfplay.visitz: unknown key"), std::string::npos);
  EXPECT_NE(error_of("nonsense:\n  a: 1\n").find("nonsense.a: unknown key"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: many\n").find("selfplay.visits: 'many' is not an integer"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: 2.5\n").find("selfplay.visits"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: 0\n").find("selfplay.visits: 0 is out of range"), std::string::npos);
  EXPECT_NE(error_of("training:\n  optimizer: adam\n").find("training.optimizer"), std::string::npos);
  EXPECT_NE(error_of("inference:\n  bf16: maybe\n").find("inference.bf16"), std::string::npos);
  EXPECT_NE(error_of("gating:\n  sprt: 1,2\n").find("gating.sprt"), std::string::npos);
  EXPECT_NE(error_of("selfplay: 3\n").find("selfplay: expected a section"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: [1, 2]\n").find("selfplay.visits: expected a single value"), std::string::npos);
  EXPECT_NE(error_of("a: [").find("not valid YAML"), std::string::npos);
  EXPECT_NE(error_of("training:\n  min_window: 10\n  max_window: 5\n").find("training.min_window"), std::string::npos);
  EXPECT_THROW(load_run_config("/nonexistent.yaml"), std::runtime_error);
}

TEST(RunConfig, EffectiveConfigRoundTrips) {
  RunConfig c;
  c.selfplay.visits = 77;
  c.gating.sprt = "0,10,0.05,0.05";
  c.run.seed = 123456789012345ULL;
  const std::string yaml = to_yaml(c);
  EXPECT_EQ(to_yaml(parse_run_config(yaml, "round trip")), yaml);
  EXPECT_EQ(parse_run_config(yaml, "round trip").run.seed, 123456789012345ULL);
}

}  // namespace
}  // namespace ataxx
