#include "config/run_config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace ataxx {
namespace {

// What `call` throws, or "" where it throws nothing.
std::string message_thrown_by(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::string error_of(const std::string& yaml) {
  return message_thrown_by([&] { parse_run_config(yaml, "test.yaml"); });
}

RunConfig shipped(const std::string& name) {
  return load_run_config(std::string(ATAXX_SOURCE_DIR) + "/configs/" + name + ".yaml");
}

TEST(RunConfig, ShippedConfigsLoadWhatTheyWrite) {
  EXPECT_EQ(shipped("tiny").network.blocks, 1);
  EXPECT_EQ(shipped("quick").run.max_minutes, 1);
  EXPECT_EQ(shipped("tiny").ladder.baselines, (std::vector<std::string>{"random", "greedy"}));
  EXPECT_EQ(shipped("default").ladder.baselines,
            (std::vector<std::string>{"random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4",
                                      "nn:model=built-in:ataxx-7x7.net,visits=32"}));
  EXPECT_EQ(shipped("gpu").inference.device, "cuda");
  EXPECT_EQ(shipped("gpu").gating.sprt, "0,20,0.05,0.05");
  EXPECT_EQ(shipped("gpu-continue").network.channels, 32);
  EXPECT_EQ(shipped("gpu-continue").gating.games, 0);
  EXPECT_EQ(shipped("gpu-continue").ladder.baselines,
            (std::vector<std::string>{"nn:model=nets/teachers/ataxx-7x7-6x32.net,visits=200,device=cuda"}));
  EXPECT_EQ(shipped("student").network.blocks, 4);
  EXPECT_EQ(shipped("student").training.teacher, "nets/teachers/ataxx-7x7-6x32.net");
  EXPECT_EQ(shipped("schataxx").run.game, "schataxx");
  EXPECT_EQ(shipped("schataxx").run.max_minutes, 30);
  EXPECT_EQ(shipped("schataxx-gpu").run.game, "schataxx");
  EXPECT_EQ(shipped("schataxx-gpu").inference.device, "cuda");
  // Schataxx self-play flattens its net's sharp priors; Ataxx searches with its own.
  EXPECT_EQ(shipped("schataxx").selfplay.policy_temperature, 2);
  EXPECT_EQ(shipped("schataxx-gpu").selfplay.policy_temperature, 2);
  EXPECT_EQ(shipped("default").selfplay.policy_temperature, 1);
  EXPECT_EQ(shipped("default").selfplay.policy_surprise_weight, 0.5);
  EXPECT_EQ(shipped("gpu-continue").selfplay.policy_surprise_weight, 0.5);
  EXPECT_EQ(shipped("default").selfplay.value_surprise_weight, 0.1);
  EXPECT_EQ(shipped("gpu-continue").selfplay.value_surprise_weight, 0.1);
  EXPECT_EQ(shipped("default").run.game, "ataxx");
  // Root noise: Dir(0.15) won its A/Bs on 7x7 and the family (docs/experiments.md); the code says 0.3.
  for (const char* name : {"default", "family", "family-every-board", "gpu", "gpu-continue"}) {
    EXPECT_EQ(shipped(name).selfplay.dirichlet_alpha, 0.15) << name;
  }
  EXPECT_EQ(shipped("family-every-board").boards.names.size(), 6u);
}

// run.game names a game the programs play, or one of its variants; each has its own defaults and
// its own boards.
TEST(RunConfig, TheGameIsOneThePipelinePlaysWithItsOwnDefaultsAndBoards) {
  EXPECT_NE(error_of("run:\n  game: chess\n")
                .find("run.game: 'chess' is none of ataxx, schataxx, schataxx-balanced or schataxx-unlimited"),
            std::string::npos);
  EXPECT_NE(error_of("run:\n  game: schataxx\nboards:\n  names: [6x6]\n").find("boards: chooses Ataxx's boards"),
            std::string::npos);
  EXPECT_EQ(parse_run_config("run:\n  game: schataxx-balanced\n", "t").rules.repetition_limit, 2);
  EXPECT_EQ(parse_run_config("run:\n  game: schataxx\nrules:\n  repetition_limit: 3\n", "t").rules.repetition_limit, 3);
  EXPECT_EQ(parse_run_config("", "t").rules.repetition_limit, 3);
}

// The reference page's table is the one `train --list-keys` prints: a key added, renamed or given
// another default must be written there too.
TEST(RunConfig, TheTrainingPageListsEveryKeyAsTheCodeHasIt) {
  std::ifstream page_file(std::string(ATAXX_SOURCE_DIR) + "/docs/training.md");
  std::stringstream page;
  page << page_file.rdbuf();
  const std::string table = config_keys_table();
  EXPECT_NE(table.find("| `run.max_minutes` | 30 | 0.01 to 10000000 |"), std::string::npos) << table;
  EXPECT_NE(page.str().find(table), std::string::npos)
      << "docs/training.md does not hold the keys as they are: paste `ataxx-zero train --list-keys` there";
}

TEST(RunConfig, LadderBaselinesAreAYamlListOfSpecsWithCommas) {
  const RunConfig c = parse_run_config("ladder:\n  baselines: [random, \"alphabeta:depth=2,time=100\"]\n", "t");
  EXPECT_EQ(c.ladder.baselines, (std::vector<std::string>{"random", "alphabeta:depth=2,time=100"}));
  EXPECT_TRUE(parse_run_config("ladder:\n  baselines: []\n", "t").ladder.baselines.empty());
  EXPECT_NE(error_of("ladder:\n  baselines: random,greedy\n").find("ladder.baselines: expected a YAML list"),
            std::string::npos);
  EXPECT_NE(error_of("ladder:\n  baselines: [[a]]\n").find("ladder.baselines"), std::string::npos);
}

// From a probe: each had been taken and changed without a word, or failed only once the run had
// begun (its config then fixed to it).
TEST(RunConfig, RefusesWhatItWouldHaveReadOtherwiseOrWhatCannotRun) {
  EXPECT_NE(error_of("run:\n  seed: 3\n---\nrun:\n  seed: 9\n").find("holds 2 YAML documents"), std::string::npos);
  EXPECT_NE(error_of("run:\n  max_generations: 010\n").find("run.max_generations: '010' has a leading zero"),
            std::string::npos);  // had been 8
  EXPECT_NE(error_of("selfplay:\n  visits: 08\n").find("'08' has a leading zero"), std::string::npos);
  EXPECT_EQ(parse_run_config("training:\n  learning_rate: 0.05\n", "t").training.learning_rate, 0.05);
  EXPECT_NE(error_of("training:\n  learning_rate: 1e999\n").find("1e999 is out of range"), std::string::npos);
  EXPECT_NE(error_of("rules:\n  repetition_limit: 1\n").find("rules.repetition_limit: is 1"), std::string::npos);
  EXPECT_EQ(parse_run_config("rules:\n  repetition_limit: 2\n", "t").rules.repetition_limit, 2);
  EXPECT_NE(error_of("ladder:\n  baselines: [random, random]\n").find("ladder.baselines: names a baseline twice"),
            std::string::npos);
  EXPECT_NE(error_of("boards:\n  names: 7x7\n").find("boards.names: expected a YAML list: [a, b]"), std::string::npos);
}

TEST(RunConfig, GatingTakesAShareOfTheWallTimeAboveNoneAndUpToAll) {
  EXPECT_EQ(RunConfig{}.gating.time_share, 1);
  EXPECT_EQ(parse_run_config("gating:\n  time_share: 0.25\n", "t").gating.time_share, 0.25);
  EXPECT_NE(error_of("gating:\n  time_share: 0\n").find("gating.time_share"), std::string::npos);
  EXPECT_NE(error_of("gating:\n  time_share: 1.5\n").find("gating.time_share"), std::string::npos);
}

TEST(RunConfig, GatingSaysWhatAnUndecidedSprtDoes) {
  EXPECT_EQ(RunConfig{}.gating.undecided, "reject");
  EXPECT_EQ(parse_run_config("gating:\n  undecided: threshold\n", "t").gating.undecided, "threshold");
  EXPECT_NE(error_of("gating:\n  undecided: flip\n").find("gating.undecided"), std::string::npos);
}

TEST(RunConfig, GatingGamesAreNoneOrBothColours) {
  EXPECT_EQ(parse_run_config("gating:\n  games: 0\n", "t").gating.games, 0);
  EXPECT_NE(error_of("gating:\n  games: 1\n").find("gating.games: is 1"), std::string::npos);
  EXPECT_NE(error_of("gating:\n  games: -2\n").find("gating.games"), std::string::npos);
  EXPECT_NE(error_of("gating:\n  games: 0\n  sprt: 0,10,0.05,0.05\n").find("gating.sprt: needs gating games"),
            std::string::npos);
}

TEST(RunConfig, ValuesOverrideDefaults) {
  const RunConfig c = parse_run_config(
      "selfplay:\n  visits: 33\ntraining:\n  optimizer: adamw\ninference:\n  bf16: true\n  int8: true\n  cuda_graphs: true\n",
      "t");
  EXPECT_EQ(c.selfplay.visits, 33);
  EXPECT_EQ(c.training.optimizer, "adamw");
  EXPECT_TRUE(c.inference.bf16);
  EXPECT_TRUE(c.inference.int8);
  EXPECT_FALSE(RunConfig{}.inference.int8);
  EXPECT_TRUE(c.inference.cuda_graphs);
  EXPECT_FALSE(RunConfig{}.inference.cuda_graphs);
  EXPECT_EQ(c.selfplay.fast_visits, RunConfig{}.selfplay.fast_visits);
}

TEST(RunConfig, Int8IsTrueFalseOrLeftToTheMachine) {
  const RunConfig automatic = parse_run_config("inference:\n  int8: auto\n", "t");
  EXPECT_TRUE(automatic.int8_auto);
  EXPECT_TRUE(parse_run_config(to_yaml(automatic), "t").int8_auto) << "auto survives the run's copy";
  EXPECT_NE(to_yaml(automatic).find("int8: auto"), std::string::npos);
  const RunConfig on = parse_run_config("inference:\n  int8: true\n", "t");
  EXPECT_FALSE(on.int8_auto);
  EXPECT_TRUE(on.inference.int8);
  EXPECT_FALSE(RunConfig{}.int8_auto);
  EXPECT_NE(error_of("inference:\n  int8: sometimes\n").find("inference.int8: 'sometimes' is not true, false or auto"),
            std::string::npos);
  EXPECT_NE(error_of("inference:\n  bf16: auto\n").find("inference.bf16: 'auto' is not true or false"), std::string::npos);
}

TEST(RunConfig, ErrorsNameTheKey) {
  EXPECT_NE(error_of("selfplay:\n  visitz: 3\n").find("selfplay.visitz: unknown key"), std::string::npos);
  EXPECT_NE(error_of("nonsense:\n  a: 1\n").find("nonsense.a: unknown key"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: many\n").find("selfplay.visits: 'many' is not an integer"), std::string::npos);
  // Too many digits for the key had been "not an integer".
  EXPECT_NE(
      error_of("run:\n  seed: 123456789012345678901234\n").find("run.seed: 123456789012345678901234 is out of range"),
      std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: -99999999999999999999\n").find("is out of range"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: 2.5\n").find("selfplay.visits"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: 0\n").find("selfplay.visits: 0 is out of range"), std::string::npos);
  EXPECT_NE(error_of("training:\n  optimizer: adam\n").find("training.optimizer"), std::string::npos);
  EXPECT_NE(error_of("inference:\n  bf16: maybe\n").find("inference.bf16"), std::string::npos);
  EXPECT_NE(error_of("gating:\n  sprt: 1,2\n").find("gating.sprt"), std::string::npos);
  EXPECT_NE(error_of("selfplay: 3\n").find("selfplay: expected a section"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  visits: [1, 2]\n").find("selfplay.visits: expected a single value"), std::string::npos);
  EXPECT_NE(error_of("a: [").find("not valid YAML"), std::string::npos);
  EXPECT_NE(error_of("training:\n  min_window: 10\n  max_window: 5\n")
                .find("training.min_window: 10 is larger than training.max_window (5)"),
            std::string::npos);
  EXPECT_NE(error_of("training:\n  min_sample_reuse: 9\n  max_sample_reuse: 8\n")
                .find("training.min_sample_reuse: 9 is larger than training.max_sample_reuse (8)"),
            std::string::npos);
  EXPECT_NE(error_of("training:\n  teacher_share: 0.3\n")
                .find("training.teacher_share: is set but there is no training.teacher"),
            std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  policy_surprise_weight: 0.95\n  value_surprise_weight: 0.1\n")
                .find("selfplay.value_surprise_weight: plus selfplay.policy_surprise_weight is above 1"),
            std::string::npos);
  // YAML keeps the last of a key given twice; the first was lost without a word.
  EXPECT_NE(error_of("run:\n  seed: 1\n  seed: 2\n").find("run.seed: is given twice"), std::string::npos);
  EXPECT_NE(error_of("run:\n  seed: 1\nrun:\n  max_minutes: 2\n").find("run: the section is given twice"),
            std::string::npos);
  EXPECT_NE(error_of("? [a, b]\n: 1\n").find("config test.yaml"), std::string::npos);
  EXPECT_THROW(load_run_config("/nonexistent.yaml"), std::runtime_error);
}

TEST(RunConfig, OverridesSetKeysAsTheFileDoesAndNameWhatIsWrong) {
  const RunConfig run = parse_run_config("selfplay:\n  threads: 12\n  visits: 400\ninference:\n  device: cuda\n", "t");
  const RunConfig machine = with_overrides(run, {"inference.device=cpu", "selfplay.threads=3", "inference.int8=auto"});
  EXPECT_EQ(machine.inference.device, "cpu");
  EXPECT_EQ(machine.selfplay.threads, 3);
  EXPECT_TRUE(machine.int8_auto);
  EXPECT_EQ(machine.selfplay.visits, 400) << "what no override names stays the run's";
  EXPECT_EQ(to_yaml(with_overrides(run, {})), to_yaml(run));
  const auto error = [&](const std::string& line) { return message_thrown_by([&] { with_overrides(run, {line}); }); };
  EXPECT_NE(error("selfplay.threadz=3").find("config --set: selfplay.threadz: unknown key"), std::string::npos);
  EXPECT_NE(error("nowhere.threads=3").find("config --set: nowhere.threads: unknown key"), std::string::npos);
  EXPECT_NE(error("selfplay.threads=0").find("config --set: selfplay.threads: 0 is out of range"), std::string::npos);
  EXPECT_NE(error("selfplay.threads=").find("selfplay.threads"), std::string::npos);
  EXPECT_NE(error("threads=3").find("'threads=3' is not SECTION.KEY=VALUE"), std::string::npos);
  EXPECT_NE(error("selfplay.threads").find("is not SECTION.KEY=VALUE"), std::string::npos);
  // A value is one plain value: YAML's anchors, aliases, comments and lines had come through as
  // yaml-cpp's messages, or been taken.
  for (const char* value : {"*x", "2 # two", "1\ninference.device: gpu"})
    EXPECT_NE(error(std::string("selfplay.threads=") + value).find("config --set selfplay.threads="), std::string::npos)
        << value;
}

TEST(RunConfig, NonFiniteNumbersAreErrorsNamingTheKey) {
  // Before, .nan passed every range check (comparisons with NaN are false): a run that never
  // trained, or never ended.
  for (const char* key : {"training:\n  max_sample_reuse", "run:\n  max_minutes", "training:\n  learning_rate",
                          "selfplay:\n  temperature", "gating:\n  threshold"})
    for (const char* value : {".nan", ".NaN", ".inf", "-.inf"}) {
      const std::string yaml = std::string(key) + ": " + value + "\n";
      const std::string name = yaml.substr(0, yaml.find(':')) + "." + yaml.substr(yaml.find('\n') + 3, yaml.rfind(':') - yaml.find('\n') - 3);
      EXPECT_NE(error_of(yaml).find(name + ": "), std::string::npos) << yaml << " gave '" << error_of(yaml) << "'";
    }
}

TEST(RunConfig, KeysOfTheSynchronousLoopSayWhatReplacedThem) {
  EXPECT_NE(error_of("training:\n  max_steps_per_generation: 9\n").find("renamed training.steps_per_candidate"),
            std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  games_per_generation: 9\n").find("training.min_samples"), std::string::npos);
}

TEST(RunConfig, BoardsAreParallelListsCheckedAgainstEachOther) {
  const RunConfig c = parse_run_config("boards:\n  names: [7x7, 8x8, hexagon]\n  shares: [2, 1, 1]\n", "test.yaml");
  const std::vector<BoardPlan> plans = board_plans(c);
  ASSERT_EQ(plans.size(), 3U);
  EXPECT_EQ(plans[2].board, &board(BoardId::kHexagon));
  EXPECT_DOUBLE_EQ(plans[0].share, 0.5);
  EXPECT_DOUBLE_EQ(plans[1].share, 0.25);
  EXPECT_EQ(plans[1].openings, "");
  EXPECT_DOUBLE_EQ(board_plans(RunConfig{}).front().share, 1.0);
  EXPECT_NE(error_of("boards:\n  names: [7x7, 9x9]\n").find("boards.names: unknown board '9x9'"), std::string::npos);
  EXPECT_NE(error_of("boards:\n  names: [7x7, 7x7]\n").find("named twice"), std::string::npos);
  EXPECT_NE(error_of("boards:\n  names: []\n").find("boards.names: names no board"), std::string::npos);
  EXPECT_NE(error_of("boards:\n  names: [7x7, 8x8]\n  shares: [1]\n").find("boards.shares: has 1 entries for 2"),
            std::string::npos);
  EXPECT_NE(error_of("boards:\n  names: [7x7]\n  shares: [-1]\n").find("positive"), std::string::npos);
  EXPECT_NE(error_of("boards:\n  openings: [a.txt, b.txt]\n").find("boards.openings: has 2 entries for 1"),
            std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  openings: x.txt\n").find("boards.openings"), std::string::npos);
}

TEST(RunConfig, EffectiveConfigRoundTrips) {
  RunConfig c;
  c.selfplay.visits = 77;
  c.gating.sprt = "0,10,0.05,0.05";
  c.run.seed = 123456789012345ULL;
  c.boards.names = {"7x7", "hexagon"};
  c.boards.shares = {2, 1.5};
  c.boards.openings = {"suite: with 'quotes' and # marks", ""};
  c.ladder.baselines = {"random", "alphabeta:depth=2,time=100"};
  const std::string yaml = to_yaml(c);
  const RunConfig back = parse_run_config(yaml, "round trip");
  EXPECT_EQ(back.boards.names, c.boards.names);
  EXPECT_EQ(back.boards.shares, c.boards.shares);
  EXPECT_EQ(back.boards.openings, c.boards.openings);
  EXPECT_EQ(back.ladder.baselines, c.ladder.baselines);
  EXPECT_EQ(back.training.weight_decay, c.training.weight_decay);
  EXPECT_EQ(to_yaml(parse_run_config(yaml, "round trip")), yaml);
  EXPECT_EQ(parse_run_config(yaml, "round trip").run.seed, 123456789012345ULL);
}

}  // namespace
}  // namespace ataxx
