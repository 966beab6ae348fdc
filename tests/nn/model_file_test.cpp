#include "nn/model_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <fstream>
#include <thread>
#include <tuple>

#include "nn/inference_server.h"
#include "tests/test_paths.h"
#include "util/read_file.h"

namespace ataxx {
namespace {

torch::Tensor sample_input() {
  std::vector<Position> positions = {Position::startpos(), Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 2")};
  std::vector<const Position*> pointers = {&positions[0], &positions[1]};
  return encode_batch(Encoding(7), pointers);
}

TEST(ModelFile, PlayFileGivesBitIdenticalOutputs) {
  torch::manual_seed(5);
  AtaxxNet net(ModelShape{2, 16});
  net->eval();
  ModelInfo info;
  info.step = 1234;
  info.name = "gen-0003";
  info.parent = "gen-0002";
  info.rules.halfmove_limit = 80;
  save_play_file(temp_path("a.net"), net, info);

  ModelInfo loaded_info;
  AtaxxNet loaded = load_play_file(temp_path("a.net"), &loaded_info);
  torch::NoGradGuard no_grad;
  const auto input = sample_input();
  const NetworkOutput before = net->forward(input), after = loaded->forward(input);
  EXPECT_TRUE(torch::equal(before.policy_logits, after.policy_logits));
  EXPECT_TRUE(torch::equal(before.wdl_logits, after.wdl_logits));
  EXPECT_TRUE(torch::equal(before.ownership, after.ownership));
  EXPECT_EQ(loaded_info.step, 1234);
  EXPECT_EQ(loaded_info.name, "gen-0003");
  EXPECT_EQ(loaded_info.parent, "gen-0002");
  EXPECT_EQ(loaded_info.rules.halfmove_limit, 80);
  EXPECT_EQ(loaded_info.shape.blocks, 2);
  EXPECT_EQ(loaded_info.shape.channels, 16);
}

// A training run loads models from several threads at once (gating, ladder, self-play); LibTorch's
// import is not safe to run twice at once (the ThreadSanitizer build reports a race without the
// lock in nn/model_file.cpp). Each test runs in a process of its own: these are its first imports.
TEST(ModelFile, ThreadsLoadPlayFilesAtOnceAndOneAfterAnother) {
  torch::manual_seed(6);
  AtaxxNet net(ModelShape{1, 16});
  net->eval();
  save_play_file(temp_path("loaded-by-threads.net"), net, ModelInfo{});
  // Threads that do not wait for one another: some start together, some later.
  constexpr int kThreads = 6;
  std::vector<AtaxxNet> loaded(kThreads, AtaxxNet(nullptr));
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200 * (i / 2)));
      loaded[i] = load_play_file(temp_path("loaded-by-threads.net"));
    });
  for (auto& thread : threads) thread.join();
  torch::NoGradGuard no_grad;
  const auto input = sample_input();
  const torch::Tensor expected = net->forward(input).policy_logits;
  for (AtaxxNet& each : loaded) EXPECT_TRUE(torch::equal(each->forward(input).policy_logits, expected));
}

TEST(Network, FoldedBatchNormsGiveTheSameOutputs) {
  torch::manual_seed(9);
  AtaxxNet net(ModelShape{2, 16});
  // Non-trivial running statistics, as after training.
  net->train();
  for (int i = 0; i < 5; ++i) net->forward(torch::randn({16, kInputPlanes, 7, 7}));
  net->eval();
  torch::NoGradGuard no_grad;
  const auto input = sample_input();
  const NetworkOutput before = net->forward(input);
  net->fold_batch_norms();
  const NetworkOutput after = net->forward(input);
  EXPECT_TRUE(torch::allclose(before.policy_logits, after.policy_logits, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(before.wdl_logits, after.wdl_logits, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(before.ownership, after.ownership, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(before.piece_diff, after.piece_diff, 1e-4, 1e-4));
}

TEST(Network, ADeepenedNetworkGivesItsSourcesOutputsAndCanLearnMore) {
  torch::manual_seed(11);
  AtaxxNet source(ModelShape{2, 16});
  source->train();
  for (int i = 0; i < 5; ++i) source->forward(torch::randn({16, kInputPlanes, 7, 7}));  // trained statistics
  AtaxxNet deeper = with_blocks(source, 4);
  EXPECT_EQ(deeper->shape().blocks, 4);
  EXPECT_EQ(deeper->shape().channels, 16);
  torch::NoGradGuard no_grad;
  for (const bool training : {false, true}) {  // in training the added blocks' batch statistics differ, their output not
    source->train(training);
    deeper->train(training);
    const auto input = sample_input();
    const NetworkOutput before = source->forward(input), after = deeper->forward(input);
    EXPECT_TRUE(torch::allclose(before.policy_logits, after.policy_logits, 1e-5, 1e-5)) << training;
    EXPECT_TRUE(torch::allclose(before.wdl_logits, after.wdl_logits, 1e-5, 1e-5)) << training;
    EXPECT_TRUE(torch::allclose(before.ownership, after.ownership, 1e-5, 1e-5)) << training;
  }
  // The added blocks are no copies of the source's: their first convolutions keep random weights,
  // so training moves them once their zeroed norm does.
  const auto parameters = deeper->named_parameters();
  EXPECT_GT(parameters["tower.3.conv1.weight"].abs().sum().item<float>(), 0.0f);
  EXPECT_EQ(parameters["tower.3.bn2.weight"].abs().sum().item<float>(), 0.0f);
}

TEST(Network, ACutNetworkKeepsItsSourcesFirstBlocksAndHeads) {
  torch::manual_seed(12);
  AtaxxNet source(ModelShape{3, 16});
  AtaxxNet cut = with_blocks(source, 1);
  EXPECT_EQ(cut->shape().blocks, 1);
  const auto kept = cut->named_parameters();
  for (const auto& p : source->named_parameters()) {
    const bool later_block = p.key().starts_with("tower.1.") || p.key().starts_with("tower.2.");
    EXPECT_EQ(kept.contains(p.key()), !later_block) << p.key();
    if (!later_block) {
      EXPECT_TRUE(torch::equal(kept[p.key()], p.value())) << p.key();
    }
  }
}

TEST(ModelFile, ParameterNamesAndShapesMatchEncodingVersion2) {
  // Renaming a module or changing a shape silently breaks every saved model; this pins them.
  std::ifstream in(std::string(ATAXX_SOURCE_DIR) + "/tests/nn/data/parameters-encoding-v2.txt");
  std::vector<std::string> expected;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') expected.push_back(line);
  AtaxxNet net(ModelShape{2, 16});
  std::vector<std::string> actual;
  auto describe = [&](const std::string& name, const torch::Tensor& t) {
    std::string line = name;
    for (const auto size : t.sizes()) line.append(" ").append(std::to_string(size));
    actual.push_back(line);
  };
  for (const auto& p : net->named_parameters()) describe(p.key(), p.value());
  for (const auto& b : net->named_buffers()) describe(b.key(), b.value());
  EXPECT_EQ(actual, expected);
}

TEST(ModelFile, CheckpointRestoresOptimizerStateExactly) {
  torch::manual_seed(6);
  AtaxxNet net(ModelShape{1, 8});
  torch::optim::AdamW optimizer(net->parameters(), torch::optim::AdamWOptions(1e-3));
  for (int step = 0; step < 3; ++step) {
    optimizer.zero_grad();
    net->forward(sample_input()).wdl_logits.sum().backward();
    optimizer.step();
  }
  CheckpointInfo info;
  info.step = 3;
  info.optimizer = "adamw";
  info.config_yaml = "seed: 1\n";
  save_checkpoint(temp_path("c.ckpt"), net, optimizer, info);

  const CheckpointInfo read = read_checkpoint_info(temp_path("c.ckpt"));
  EXPECT_EQ(read.step, 3);
  EXPECT_EQ(read.config_yaml, "seed: 1\n");
  AtaxxNet resumed(read.shape);
  torch::optim::AdamW resumed_optimizer(resumed->parameters(), torch::optim::AdamWOptions(1e-3));
  load_checkpoint(temp_path("c.ckpt"), resumed, resumed_optimizer, torch::kCPU);

  // One more identical step on both gives identical weights only if the moments were restored.
  for (auto [model, adamw] : {std::make_pair(&net, &optimizer), std::make_pair(&resumed, &resumed_optimizer)}) {
    adamw->zero_grad();
    (*model)->forward(sample_input()).wdl_logits.sum().backward();
    adamw->step();
  }
  const auto a = net->parameters(), b = resumed->parameters();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(torch::equal(a[i], b[i])) << i;
}

TEST(ModelFile, RejectsMissingForeignTruncatedAndWrongKindFiles) {
  EXPECT_THROW(load_play_file(temp_path("missing.net")), ModelFileError);
  {
    std::ofstream foreign(temp_path("foreign.net"));
    foreign << "this is not a model";
  }
  EXPECT_THROW(load_play_file(temp_path("foreign.net")), ModelFileError);

  torch::manual_seed(1);
  AtaxxNet net(ModelShape{1, 8});
  save_play_file(temp_path("whole.net"), net, ModelInfo{});
  const std::string bytes = read_whole_file(temp_path("whole.net"));
  {
    std::ofstream cut(temp_path("cut.net"), std::ios::binary);
    cut << bytes.substr(0, bytes.size() / 2);
  }
  EXPECT_THROW(load_play_file(temp_path("cut.net")), ModelFileError);

  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1));
  save_checkpoint(temp_path("k.ckpt"), net, sgd, CheckpointInfo{});
  try {
    load_play_file(temp_path("k.ckpt"));
    FAIL();
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("checkpoint"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_checkpoint_info(temp_path("whole.net")), ModelFileError);
}

// A play file whose header fields are written by hand.
void write_play_header(const std::string& path, std::int64_t blocks, const c10::IValue& step,
                       std::int64_t encoding = kEncodingVersion, const std::string& boards = "7x7") {
  torch::serialize::OutputArchive archive;
  archive.write("format", c10::IValue(std::string("ataxx-zero play file")));
  archive.write("version", c10::IValue(std::int64_t{1}));
  archive.write("encoding_version", c10::IValue(encoding));
  archive.write("boards", c10::IValue(boards));
  archive.write("blocks", c10::IValue(blocks));
  archive.write("channels", c10::IValue(std::int64_t{64}));
  archive.write("halfmove_limit", c10::IValue(std::int64_t{100}));
  archive.write("repetition_limit", c10::IValue(std::int64_t{3}));
  archive.write("step", step);
  archive.write("name", c10::IValue(std::string("hand-made")));
  archive.write("parent", c10::IValue(std::string("")));
  write_model_archive(archive, path);
}

TEST(ModelFile, BoundsTheShapeAndTypesEveryField) {
  // A huge shape must be refused before a network of that size is built.
  write_play_header(temp_path("huge.net"), 1'000'000, c10::IValue(std::int64_t{0}));
  try {
    load_play_file(temp_path("huge.net"));
    FAIL();
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("blocks"), std::string::npos) << e.what();
  }
  // A field of the wrong type is a ModelFileError, not LibTorch's own exception.
  write_play_header(temp_path("typed.net"), 2, c10::IValue(std::string("many")));
  EXPECT_THROW(load_play_file(temp_path("typed.net")), ModelFileError);
}

TEST(ModelFile, NetworksOfTheFirstEncodingAndUnknownBoardsAreRefusedWithTheReason) {
  const std::vector<std::tuple<std::int64_t, std::string, std::string>> cases = {
      {1, "7x7", "uses input encoding 1; this build encodes version 2"},
      {2, "7x7,9x9", "unknown board '9x9'"},
  };
  for (const auto& [encoding, boards, reason] : cases) {
    write_play_header(temp_path("refused.net"), 1, c10::IValue(std::int64_t{0}), encoding, boards);
    try {
      load_play_file(temp_path("refused.net"));
      ADD_FAILURE() << reason;
    } catch (const ModelFileError& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  }
}

TEST(ModelFile, FilesRecordTheBoardsTheNetWasTrainedOn) {
  AtaxxNet net(ModelShape{1, 8});
  ModelInfo info;
  info.boards = BoardSet::parse("7x7,hexagon");
  save_play_file(temp_path("family.net"), net, info);
  ModelInfo back;
  load_play_file(temp_path("family.net"), &back);
  EXPECT_EQ(back.boards.names(), "7x7,hexagon");
  EXPECT_EQ(back.boards.encoding().canvas(), 9);
}

TEST(ModelFile, ADamagedByteIsRefusedBeforeLibTorchReadsIt) {
  torch::manual_seed(1);
  AtaxxNet net(ModelShape{1, 8});
  save_play_file(temp_path("intact.net"), net, ModelInfo{});
  const std::string bytes = read_whole_file(temp_path("intact.net"));
  // LibTorch 1.13 can crash on a damaged archive; every flipped byte must be caught first.
  for (std::size_t at = 0; at < bytes.size(); at += bytes.size() / 97 + 1) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    std::ofstream(temp_path("damaged.net"), std::ios::binary) << damaged;
    EXPECT_THROW(load_play_file(temp_path("damaged.net")), ModelFileError) << "byte " << at;
  }
  std::ofstream(temp_path("longer.net"), std::ios::binary) << bytes << "x";
  EXPECT_THROW(load_play_file(temp_path("longer.net")), ModelFileError);
}

// A bare LibTorch archive, as the first release wrote play files, holding a 1x8 network's weights
// and claiming `blocks` x `channels`.
void write_bare_play_file(const std::string& path, std::int64_t blocks, std::int64_t channels) {
  torch::manual_seed(2);
  AtaxxNet net(ModelShape{1, 8});
  torch::serialize::OutputArchive archive, weights;
  archive.write("format", c10::IValue(std::string("ataxx-zero play file")));
  archive.write("version", c10::IValue(std::int64_t{1}));
  archive.write("encoding_version", c10::IValue(std::int64_t{kEncodingVersion}));
  archive.write("boards", c10::IValue(std::string("7x7")));
  archive.write("blocks", c10::IValue(blocks));
  archive.write("channels", c10::IValue(channels));
  archive.write("halfmove_limit", c10::IValue(std::int64_t{100}));
  archive.write("repetition_limit", c10::IValue(std::int64_t{3}));
  archive.write("step", c10::IValue(std::int64_t{5}));
  archive.write("name", c10::IValue(std::string("old")));
  archive.write("parent", c10::IValue(std::string("")));
  net->save(weights);
  archive.write("model", weights);
  archive.save_to(path);
}

// Sets an environment variable for one scope.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedVariable() { unsetenv(name_); }

 private:
  const char* name_;
};

TEST(ModelFile, FilesOfTheFirstReleaseLoadOnlyWhenTheUserSaysSo) {
  write_bare_play_file(temp_path("first-release.net"), 1, 8);
  try {
    load_play_file(temp_path("first-release.net"));
    ADD_FAILURE() << "an unchecked archive reached LibTorch's reader";
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("bare LibTorch archive"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ATAXX_LOAD_BARE_MODEL_FILES=1"), std::string::npos) << e.what();
  }
  const ScopedVariable trusted("ATAXX_LOAD_BARE_MODEL_FILES", "1");
  ModelInfo info;
  load_play_file(temp_path("first-release.net"), &info);
  EXPECT_EQ(info.name, "old");
  EXPECT_EQ(info.step, 5);
}

TEST(ModelFile, AShapeTheFileIsTooSmallToHoldIsRefusedBeforeANetworkIsMade) {
  // Before: a 64 x 1024 network (about 5 GB of weights) was made, then its weights were not found.
  write_bare_play_file(temp_path("claims-huge.net"), 64, 1024);
  const ScopedVariable trusted("ATAXX_LOAD_BARE_MODEL_FILES", "1");
  try {
    load_play_file(temp_path("claims-huge.net"));
    ADD_FAILURE() << "loaded";
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("claims a 64x1024 network, whose weights need at least 4831838208 bytes"),
              std::string::npos)
        << e.what();
  }
}

TEST(ModelFile, ExportMakesAPlayFileWithTheCheckpointsWeights) {
  torch::manual_seed(2);
  AtaxxNet net(ModelShape{1, 8});
  net->eval();
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1));
  CheckpointInfo info;
  info.step = 77;
  info.rules.halfmove_limit = 60;
  info.rules.repetition_limit = 0;
  save_checkpoint(temp_path("e.ckpt"), net, sgd, info);
  export_play_file(temp_path("e.ckpt"), temp_path("e.net"), "exported");
  ModelInfo exported;
  AtaxxNet loaded = load_play_file(temp_path("e.net"), &exported);
  EXPECT_EQ(exported.step, 77);
  EXPECT_EQ(exported.rules.halfmove_limit, 60);  // the run's rules travel to the play file
  EXPECT_EQ(exported.rules.repetition_limit, 0);
  EXPECT_EQ(exported.name, "exported");
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(net->forward(sample_input()).policy_logits, loaded->forward(sample_input()).policy_logits));
}

TEST(InferenceServer, AnswersManyThreadsWithPriorsOverLegalMoves) {
  write_random_play_file(temp_path("s.net"), {1, 8}, 3);
  InferenceOptions options;
  options.max_batch = 16;
  options.cache_entries = 1024;
  InferenceServer server(temp_path("s.net"), options);
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 10; ++round) {
        const Position pos = Position::startpos();
        MoveList moves;
        pos.generate_moves(moves);
        std::array<float, kMaxMoves> priors;
        Wdl value;
        const EvalRequest request{&pos, std::span<const Move>(moves.begin(), moves.size()),
                                  std::span<float>(priors.data(), moves.size()), &value};
        server.evaluate(std::span<const EvalRequest>(&request, 1));
        float total = 0;
        for (int i = 0; i < moves.size(); ++i) total += priors[i];
        if (std::abs(total - 1.0f) > 1e-4f || std::abs(value.win + value.draw + value.loss - 1.0f) > 1e-4f) ++bad;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad, 0);
  const InferenceStats stats = server.stats();
  EXPECT_EQ(stats.cache_lookups, 40U);
  EXPECT_GE(stats.cache_hits, 30U);  // the same position 40 times: at most one miss per concurrent batch
  InferenceOptions bad_device;
  bad_device.device = "tpu";
  EXPECT_THROW(InferenceServer(temp_path("s.net"), bad_device), std::invalid_argument);
}

}  // namespace
}  // namespace ataxx
