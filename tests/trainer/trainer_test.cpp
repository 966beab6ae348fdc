#include "trainer/trainer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "config/run_config.h"
#include "games/ataxx/position.h"
#include "nn/built_in_nets.h"
#include "nn/model_file.h"
#include "games/schataxx/encoding.h"
#include "selfplay/training_data.h"
#include "tests/test_paths.h"
#include "trainer/soft_policy.h"

namespace ataxx {
namespace {

// What the trainer needs of the config's game.
TrainedGame game_of(const RunConfig& config) {
  return with_game(config.run.game, [&]<typename G>() { return trained_game<G>(boards_of(config)); });
}

TEST(Trainer, RefusesADeviceItCannotUse) {
  RunConfig config;
  config.network.blocks = 1;
  config.network.channels = 8;
  config.inference.device = "tpu";
  EXPECT_THROW(Trainer(config, "", "", game_of(config)), std::invalid_argument);
  config.inference.device = "cuda";
  if (!std::filesystem::exists("/dev/nvidia0")) {
    EXPECT_THROW(Trainer(config, "", "", game_of(config)), std::invalid_argument);
  }
  config.inference.device = "cpu";
  EXPECT_NO_THROW(Trainer(config, "", "", game_of(config)));
}

// A play file that cannot be written was blamed on the checkpoint ("is damaged"): a user might
// have thrown a good checkpoint away.
TEST(Trainer, AnExportThatCannotWriteNamesThePlayFileNotTheCheckpoint) {
  RunConfig config;
  config.network.blocks = 1;
  config.network.channels = 8;
  Trainer(config, "", "", game_of(config)).save_checkpoint(temp_path("export-source.ckpt"));
  const std::string out = temp_path("no-such-folder") + "/exported.net";
  try {
    export_play_file(temp_path("export-source.ckpt"), out, "exported");
    ADD_FAILURE() << "wrote into a folder that does not exist";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot write '" + out + "'"), std::string::npos) << what;
    EXPECT_EQ(what.find("damaged"), std::string::npos) << what;
  }
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

// Every parameter and batch-norm statistic of a and b, bit for bit.
bool same_weights(const AtaxxNet& a, const AtaxxNet& b) {
  const auto b_parameters = b->named_parameters();
  const auto b_buffers = b->named_buffers();
  for (const auto& p : a->named_parameters())
    if (!torch::equal(p.value(), b_parameters[p.key()])) return false;
  for (const auto& buffer : a->named_buffers())
    if (!torch::equal(buffer.value(), b_buffers[buffer.key()])) return false;
  return true;
}

// A Trainer of `config` (resuming `checkpoint` unless it is "") must be refused with a ModelFileError
// whose message holds `message`.
void expect_refused(const RunConfig& config, const std::string& checkpoint, const std::string& message) {
  try {
    Trainer(config, "", checkpoint, game_of(config));
    ADD_FAILURE() << "started, though it should be refused with: " << message;
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(Trainer, ANewRunStartsFromTheWeightsOfItsInitFromPlayFile) {
  torch::manual_seed(3);
  AtaxxNet source(ModelShape{1, 8});
  for (auto& buffer : source->named_buffers())  // statistics a trained net would have, not the defaults
    if (buffer.value().is_floating_point()) buffer.value().uniform_(0.5, 1.5);
  save_play_file(temp_path("source.net"), source, ModelInfo{});

  RunConfig config;
  config.network.blocks = 1;
  config.network.channels = 8;
  Trainer random_start(config, "", "", game_of(config));
  random_start.save_play_file(temp_path("random.net"), ModelInfo{});
  EXPECT_FALSE(same_weights(load_play_file(temp_path("random.net")), source));

  config.network.init_from = temp_path("source.net");
  Trainer started(config, "", "", game_of(config));
  started.save_play_file(temp_path("started.net"), ModelInfo{});
  EXPECT_TRUE(same_weights(load_play_file(temp_path("started.net")), source));
}

TEST(Trainer, AnInitFromFileOfOtherChannelsOrMissingIsRefusedByName) {
  AtaxxNet wide(ModelShape{2, 16});
  save_play_file(temp_path("wide.net"), wide, ModelInfo{});
  RunConfig config;
  config.network.blocks = 1;
  config.network.channels = 8;
  config.network.init_from = temp_path("wide.net");
  expect_refused(config, "", "network.init_from: play file '" + temp_path("wide.net") + "' holds a 2x16");
  config.network.init_from = temp_path("no_such.net");
  EXPECT_THROW(Trainer(config, "", "", game_of(config)), ModelFileError);
}

TEST(Trainer, AnInitFromFileOfFewerBlocksStartsADeeperRunThatPlaysAsItDoes) {
  torch::manual_seed(4);
  AtaxxNet one_block(ModelShape{1, 8});
  save_play_file(temp_path("one_block.net"), one_block, ModelInfo{});
  RunConfig config;
  config.network.blocks = 3;
  config.network.channels = 8;
  config.network.init_from = temp_path("one_block.net");
  Trainer deeper(config, "", "", game_of(config));
  deeper.save_play_file(temp_path("deeper.net"), ModelInfo{});
  ModelInfo info;
  AtaxxNet loaded = load_play_file(temp_path("deeper.net"), &info);
  EXPECT_EQ(info.shape.blocks, 3);
  loaded->eval();
  one_block->eval();
  torch::NoGradGuard no_grad;
  const std::vector<Position> positions = {Position::startpos(), Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 2")};
  const std::vector<const Position*> pointers = {&positions[0], &positions[1]};
  const auto input = encode_batch(Encoding(7), pointers);
  EXPECT_TRUE(torch::allclose(loaded->forward(input).policy_logits, one_block->forward(input).policy_logits, 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(loaded->forward(input).wdl_logits, one_block->forward(input).wdl_logits, 1e-5, 1e-5));

  AtaxxNet wider(ModelShape{1, 16});
  save_play_file(temp_path("wider.net"), wider, ModelInfo{});
  config.network.init_from = temp_path("wider.net");
  expect_refused(config, "", "holds a 1x16 network; the config asks for 3x8 (a run starts from a net of its channels)");
}

TEST(Trainer, AnInitFromNetOfSomeOfTheRunsBoardsStartsIt) {
  AtaxxNet seven(ModelShape{1, 8});
  save_play_file(temp_path("seven.net"), seven, ModelInfo{});  // 7x7
  RunConfig config;
  config.network.blocks = 1;
  config.network.channels = 8;
  config.boards.names = {"7x7", "hexagon", "4x4"};
  config.network.init_from = temp_path("seven.net");
  Trainer family(config, "", "", game_of(config));
  family.save_play_file(temp_path("family.net"), ModelInfo{});
  EXPECT_TRUE(same_weights(load_play_file(temp_path("family.net")), seven));

  ModelInfo hexagon_info;
  hexagon_info.boards = BoardSet::parse("hexagon");
  save_play_file(temp_path("hexagon.net"), seven, hexagon_info);
  config.boards.names = {"7x7"};
  config.network.init_from = temp_path("hexagon.net");
  expect_refused(config, "", "was trained on hexagon, which the run's boards (7x7) do not all include");
}

// Each shipped config that starts from a net, or is taught by one, names a net it can use
// (family-every-board named the 4x32 7x7 net of its day, and refused the 6x32 one shipped since). A
// built-in net is the file of nets/ (tools_tests' BuiltInNets checks that); other paths are from
// the checkout's root.
TEST(Trainer, EveryShippedConfigStartsFromTheNetItNames) {
  const auto from_checkout = [](std::string& net) {
    if (!net.empty())
      net = std::string(ATAXX_SOURCE_DIR) +
            (net.starts_with(kBuiltInPrefix) ? "/nets/" + net.substr(kBuiltInPrefix.size()) : "/" + net);
  };
  int starting = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(ATAXX_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    RunConfig config = load_run_config(entry.path());
    if (config.network.init_from.empty()) continue;
    from_checkout(config.network.init_from);
    from_checkout(config.training.teacher);
    config.inference.device = "cpu";
    EXPECT_NO_THROW(Trainer(config, "", "", game_of(config))) << entry.path();
    ++starting;
  }
  EXPECT_GE(starting, 1);
}

// A few positions of a short game, each with all its visits on its first move: a buffer small
// enough for a net to learn by heart.
ReplayBuffer memorisable_buffer(const RunConfig::Training& t, const std::string& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<TrainingSample> samples;
  Position position = Position::startpos();
  for (int ply = 0; ply < 8; ++ply) {
    MoveList moves;
    position.generate_moves(moves);
    TrainingSample s;
    s.position = position;
    s.visits = {{moves[0], 100}};
    s.result = ply % 2 ? 1 : -1;
    samples.push_back(s);
    position.make_move(moves[0]);
  }
  write_chunk(dir + "/gen-0000-a.zst", 1, samples);
  ReplayBuffer buffer(t);
  buffer.refresh(dir);
  return buffer;
}

// A small network at a high rate: it learns a memorisable buffer within 50 steps.
RunConfig memorising_run() {
  RunConfig config;
  config.network.blocks = 1;
  config.network.channels = 16;
  config.training.batch_size = 32;
  config.training.warmup_steps = 1;
  config.training.learning_rate = 0.1;
  return config;
}

// The mean losses of the first 5 and of the last 5 of 50 steps.
template <typename Buffer>
std::pair<Losses, Losses> first_and_last_losses(Trainer& trainer, const Buffer& buffer, std::mt19937_64& rng) {
  const Losses first = trainer.train(buffer, 5, 0, rng);
  trainer.train(buffer, 40, 0, rng);
  return {first, trainer.train(buffer, 5, 0, rng)};
}

// Autocast caches its bfloat16 copies of the weights; were they kept from one step to the next,
// every forward would run the first step's weights and the loss would not fall. On the CPU here,
// and on CUDA too where the build and machine have it (tools/gpu/build.sh).
TEST(Trainer, Bf16TrainingLearnsWithTheWeightsOfEachStep) {
  RunConfig config = memorising_run();
  config.training.bf16 = true;
  const ReplayBuffer buffer = memorisable_buffer(config.training, temp_path("bf16-games"));
  for (const std::string device : {"cpu", "cuda"}) {
    if (device == "cuda" && !torch::cuda::is_available()) continue;
    SCOPED_TRACE(device);
    config.inference.device = device;
    Trainer trainer(config, "", "", game_of(config));
    std::mt19937_64 rng(1);
    const auto [first, last] = first_and_last_losses(trainer, buffer, rng);
    // 5.9 -> 0.85 here; 6.7 -> 3.4 with the first step's cached weights.
    EXPECT_LT(last.policy, 0.25 * first.policy) << first.policy << " -> " << last.policy;
  }
}

// The largest total variation distance, over the positions of memorisable_buffer, between the
// policies of the play files a and b.
double largest_policy_distance(const std::string& a, const std::string& b) {
  std::vector<Position> positions{Position::startpos()};
  for (int ply = 1; ply < 8; ++ply) {
    MoveList moves;
    positions.back().generate_moves(moves);
    positions.push_back(positions.back());
    positions.back().make_move(moves[0]);
  }
  std::vector<const Position*> pointers;
  for (const Position& position : positions) pointers.push_back(&position);
  const auto input = encode_batch(Encoding(7), pointers);
  const torch::NoGradGuard no_grad;
  auto policy = [&](const std::string& path) {
    AtaxxNet net = load_play_file(path);
    net->eval();
    return torch::softmax(net->forward(input).policy_logits, 1);
  };
  return 0.5 * (policy(a) - policy(b)).abs().sum(1).max().item<double>();
}

// A student of `config`'s teacher trained 50 steps on memorisable games (in NAME-games): the
// largest distance between its policy and its teacher's.
double taught_policy_distance(const RunConfig& config, const std::string& name) {
  const ReplayBuffer buffer = memorisable_buffer(config.training, temp_path(name + "-games"));
  Trainer student(config, "", "", game_of(config));
  std::mt19937_64 rng(1);
  student.train(buffer, 50, 0, rng);
  student.save_play_file(temp_path(name + "-student.net"), ModelInfo{});
  return largest_policy_distance(temp_path(name + "-student.net"), config.training.teacher);
}

// A student taught at share 1 learns its teacher's policy, not the search's targets (all visits on
// one move); at share 0 the teacher is not heard.
TEST(Trainer, AStudentLearnsItsTeachersPolicyInTheTeachersShare) {
  torch::manual_seed(5);
  AtaxxNet teacher(ModelShape{2, 8});
  save_play_file(temp_path("teacher.net"), teacher, ModelInfo{});
  RunConfig config = memorising_run();
  config.training.teacher = temp_path("teacher.net");
  for (const double share : {1.0, 0.0}) {
    SCOPED_TRACE(share);
    config.training.teacher_share = share;
    const double distance = taught_policy_distance(config, "taught");
    if (share == 1.0)
      EXPECT_LT(distance, 0.1);
    else
      EXPECT_GT(distance, 0.5);
  }
}

TEST(Trainer, ATeacherOfAnotherGameOrBoardIsRefusedByName) {
  RunConfig config = memorising_run();
  config.run.game = "schataxx";
  Trainer(config, "", "", game_of(config)).save_play_file(temp_path("schataxx-teacher.net"), ModelInfo{});
  config.run.game = "ataxx";
  config.training.teacher = temp_path("schataxx-teacher.net");
  expect_refused(config, "",
                 "training.teacher: '" + temp_path("schataxx-teacher.net") + "' is a network of schataxx, not of ataxx");
}

// A teacher must play every board the run trains: its targets on a board it never saw would be
// noise. One that plays more boards (a family net teaching a 7x7 run) is heard on the run's canvas.
TEST(Trainer, ATeacherMustPlayEveryBoardOfTheRunAndMayPlayMore) {
  torch::manual_seed(6);
  AtaxxNet seven(ModelShape{1, 8});
  save_play_file(temp_path("seven-teacher.net"), seven, ModelInfo{});
  RunConfig config = memorising_run();
  config.training.teacher = temp_path("seven-teacher.net");
  for (const auto& boards : {std::vector<std::string>{"6x6", "7x7"}, std::vector<std::string>{"7x7", "8x8"}}) {
    config.boards.names = boards;
    expect_refused(config, "",
                   "was trained on 7x7; a teacher must play every board the run trains (" +
                       BoardSet::parse(boards[0] + "," + boards[1]).names() + "), and it does not play " +
                       (boards[0] == "7x7" ? boards[1] : boards[0]));
  }

  ModelInfo family_info;
  family_info.boards = BoardSet::parse("4x4,7x7,hexagon");
  AtaxxNet family(ModelShape{2, 8}, network_io(AtaxxGame::kName, family_info.boards));
  save_play_file(temp_path("family-teacher.net"), family, family_info);
  config.boards.names = {"7x7"};
  config.training.teacher = temp_path("family-teacher.net");
  config.training.teacher_share = 1.0;
  EXPECT_LT(taught_policy_distance(config, "family-taught"), 0.1);
}

TEST(SoftPolicy, TargetsAreTheSharesToThePowerOneQuarterSummingToOne) {
  const auto targets = soft_policy_targets(torch::tensor({0.64f, 0.36f, 0.0f, 0.0f, 0.0f, 0.0f}).view({2, 3}));
  const float low = std::pow(0.64f, 0.25f), high = std::pow(0.36f, 0.25f);
  EXPECT_NEAR(targets[0][0].item<float>(), low / (low + high), 1e-6);
  EXPECT_NEAR(targets[0][1].item<float>(), high / (low + high), 1e-6);
  EXPECT_EQ(targets[0][2].item<float>(), 0.0f);
  EXPECT_EQ(targets[1].sum().item<float>(), 0.0f);  // padding rows stay empty
}

RunConfig soft_policy_run() {
  RunConfig config = memorising_run();
  config.training.soft_policy_weight = 8;
  return config;
}

TEST(SoftPolicy, TheHeadLearnsItsTargets) {
  const RunConfig config = soft_policy_run();
  const ReplayBuffer buffer = memorisable_buffer(config.training, temp_path("soft-games"));
  Trainer trainer(config, "", "", game_of(config));
  std::mt19937_64 rng(1);
  const auto [first, last] = first_and_last_losses(trainer, buffer, rng);
  EXPECT_LT(last.soft_policy, 0.25 * first.soft_policy) << first.soft_policy << " -> " << last.soft_policy;
  EXPECT_NEAR(last.total - 8 * last.soft_policy,
              last.policy + last.value + config.training.ownership_weight * last.ownership +
                  config.training.piece_diff_weight * last.piece_diff,
              1e-3);

  RunConfig without = config;
  without.training.soft_policy_weight = 0;
  Trainer plain(without, "", "", game_of(without));
  EXPECT_EQ(plain.train(buffer, 2, 0, rng).soft_policy, 0.0);
}

// A checkpoint holds the head and its optimizer: a resumed run trains on exactly as the run that
// saved it would have. A checkpoint without the head (a run that did not have it) starts a fresh one.
TEST(SoftPolicy, ACheckpointResumesTheHeadExactly) {
  const RunConfig config = soft_policy_run();
  const ReplayBuffer buffer = memorisable_buffer(config.training, temp_path("soft-resume-games"));
  Trainer trainer(config, "", "", game_of(config));
  std::mt19937_64 rng(1);
  trainer.train(buffer, 10, 0, rng);
  trainer.save_checkpoint(temp_path("soft.ckpt"));
  std::mt19937_64 rng_then(2), rng_resumed(2);
  const Losses then = trainer.train(buffer, 3, 0, rng_then);
  const Losses resumed = Trainer(config, "", temp_path("soft.ckpt"), game_of(config)).train(buffer, 3, 0, rng_resumed);
  EXPECT_NEAR(resumed.soft_policy, then.soft_policy, 1e-5);
  EXPECT_NEAR(resumed.policy, then.policy, 1e-5);

  RunConfig without = config;
  without.training.soft_policy_weight = 0;
  Trainer plain(without, "", "", game_of(without));
  plain.train(buffer, 10, 0, rng);
  plain.save_checkpoint(temp_path("plain.ckpt"));
  Trainer gains_head(config, "", temp_path("plain.ckpt"), game_of(config));
  EXPECT_EQ(gains_head.step(), 10);
  EXPECT_GT(gains_head.train(buffer, 1, 0, rng).soft_policy, 0.0);
  EXPECT_EQ(Trainer(without, "", temp_path("soft.ckpt"), game_of(without)).step(), 10);  // a run that drops the head resumes too

  export_play_file(temp_path("soft.ckpt"), temp_path("soft.net"), "soft");  // play files hold the network alone
  ModelInfo info;
  load_play_file(temp_path("soft.net"), &info);
  EXPECT_EQ(info.step, 10);
}

// Schataxx's positions of a short game, memorisable as above.
BasicReplayBuffer<SchataxxGame> memorisable_schataxx_buffer(const RunConfig::Training& t, const std::string& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<BasicTrainingSample<SchataxxGame>> samples;
  schataxx::Position position = schataxx::Position::startpos();
  for (int ply = 0; ply < 6; ++ply) {
    schataxx::MoveList moves;
    position.generate_moves(moves);
    BasicTrainingSample<SchataxxGame> s;
    s.position = position;
    s.visits = {{moves[ply % moves.size()], 100}};
    s.result = ply % 2 ? 1 : -1;
    s.final_x = position.men(Color::kX);
    s.final_o = position.men(Color::kO);
    samples.push_back(s);
    position.make_move(moves[ply % moves.size()]);
  }
  write_chunk(dir + "/gen-0000-a.zst", 1, samples);
  BasicReplayBuffer<SchataxxGame> buffer(t);
  buffer.refresh(dir);
  return buffer;
}

TEST(Trainer, TrainsASchataxxNetworkAndItsFilesNameTheGame) {
  RunConfig config = memorising_run();
  config.run.game = "schataxx";
  const auto buffer = memorisable_schataxx_buffer(config.training, temp_path("schataxx-games"));
  Trainer trainer(config, "", "", game_of(config));
  std::mt19937_64 rng(1);
  const auto [first, last] = first_and_last_losses(trainer, buffer, rng);
  EXPECT_LT(last.policy, 0.25 * first.policy) << first.policy << " -> " << last.policy;
  EXPECT_THROW(trainer.train(ReplayBuffer(config.training), 1, 0, rng), std::logic_error);

  trainer.save_play_file(temp_path("schataxx.net"), ModelInfo{});
  ModelInfo info;
  load_play_file(temp_path("schataxx.net"), &info);
  EXPECT_EQ(info.game, "schataxx");
  EXPECT_EQ(info.io.policy_size(), schataxx::kPolicySize);
  trainer.save_checkpoint(temp_path("schataxx.ckpt"));
  EXPECT_EQ(read_checkpoint_info(temp_path("schataxx.ckpt")).game, "schataxx");
  EXPECT_EQ(Trainer(config, "", temp_path("schataxx.ckpt"), game_of(config)).step(), 50);

  RunConfig ataxx_run = config;
  ataxx_run.run.game = "ataxx";
  expect_refused(ataxx_run, temp_path("schataxx.ckpt"), "'" + temp_path("schataxx.ckpt") + "' is a network of schataxx, not of ataxx");
}

}  // namespace
}  // namespace ataxx
