// Play files read without LibTorch (nn/play_file.h) against LibTorch's own reader, and the zip and
// pickle readers beneath it.
#include "nn/play_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "nn/built_in_nets.h"
#include "nn/eigen_network.h"
#include "nn/model_container.h"
#include "nn/model_file.h"
#include "nn/torch_pickle.h"
#include "tests/test_paths.h"
#include "util/read_file.h"

namespace ataxx {
namespace {

using namespace std::literals;

std::string shipped(const std::string& name) { return std::string(ATAXX_SOURCE_DIR) + "/nets/" + name; }

// LibTorch's parameters of a play file, its batch norms folded.
FoldedParameters folded_by_libtorch(const std::string& path, ModelInfo* info) {
  AtaxxNet net = load_play_file(path, info);
  net->fold_batch_norms();
  FoldedParameters parameters;
  for (const auto& item : net->named_parameters()) {
    const torch::Tensor t = item.value().detach().contiguous();
    parameters[item.key()] = {t.sizes().vec(),
                              std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + t.numel())};
  }
  return parameters;
}

void expect_read_as_libtorch_reads(const std::string& path) {
  SCOPED_TRACE(path);
  ModelInfo expected_info;
  const FoldedParameters expected = folded_by_libtorch(path, &expected_info);
  const PlayFileWeights plain = read_play_file_weights(path);
  EXPECT_EQ(plain.info.game, expected_info.game);
  EXPECT_EQ(plain.info.boards.names(), expected_info.boards.names());
  EXPECT_EQ(plain.info.shape.blocks, expected_info.shape.blocks);
  EXPECT_EQ(plain.info.shape.channels, expected_info.shape.channels);
  EXPECT_EQ(plain.info.rules.halfmove_limit, expected_info.rules.halfmove_limit);
  EXPECT_EQ(plain.info.rules.repetition_limit, expected_info.rules.repetition_limit);
  EXPECT_EQ(plain.info.step, expected_info.step);
  EXPECT_EQ(plain.info.name, expected_info.name);
  EXPECT_EQ(plain.info.parent, expected_info.parent);
  // Each convolution and linear layer's weight and bias (LibTorch's folded net keeps its norms'
  // parameters beside).
  EXPECT_EQ(plain.parameters.size(), 2u * (9 + 2 * expected_info.shape.blocks));
  // Bit for bit: the engine then searches as it did when LibTorch read its nets.
  for (const auto& [name, tensor] : plain.parameters) {
    ASSERT_TRUE(expected.contains(name)) << name;
    EXPECT_EQ(tensor.shape, expected.at(name).shape) << name;
    EXPECT_EQ(tensor.values, expected.at(name).values) << name;
  }
}

TEST(PlayFile, ReadsTheShippedNetsAsLibTorchDoes) {
  for (const char* net : {"ataxx-7x7.net", "ataxx-family.net", "schataxx.net"})
    expect_read_as_libtorch_reads(shipped(net));
}

// A net built into a program reads, by either reader, as the file it was built from.
TEST(PlayFile, ABuiltInNetReadsAsItsFileByBothReaders) {
  static const std::string bytes = read_model_file(shipped("schataxx.net"));
  add_built_in_net("copy.net", bytes);
  expect_read_as_libtorch_reads("built-in:copy.net");
  const PlayFileWeights built_in = read_play_file_weights("built-in:copy.net");
  const PlayFileWeights file = read_play_file_weights(shipped("schataxx.net"));
  EXPECT_EQ(built_in.info.name, file.info.name);
  EXPECT_EQ(built_in.parameters.at("value_hidden.weight").values, file.parameters.at("value_hidden.weight").values);

  EXPECT_FALSE(built_in_net(shipped("schataxx.net")).has_value()) << "a path, not a built-in name";
  try {
    read_model_info("built-in:schataxx.net");
    FAIL() << "no such net was added here";
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("no net is built into this program as 'built-in:schataxx.net'; it carries "
                                         "built-in:copy.net"),
              std::string::npos)
        << e.what();
  }
}

// A run's models/best names its best model: it plays as that play file wherever a model is taken.
TEST(PlayFile, ARunsBestReadsAsTheModelItNamesByBothReaders) {
  std::filesystem::create_directories(temp_path("run/models"));
  write_random_play_file(temp_path("run/models/gen-0007.net"), {1, 8}, 7);
  std::ofstream(temp_path("run/models/best")) << "gen-0007\n";
  expect_read_as_libtorch_reads(temp_path("run/models/best"));
  EXPECT_EQ(read_play_file_weights(temp_path("run/models/best")).parameters.at("value_hidden.weight").values,
            read_play_file_weights(temp_path("run/models/gen-0007.net")).parameters.at("value_hidden.weight").values);

  std::ofstream(temp_path("run/models/best")) << "gen-0009\n";
  try {
    read_model_info(temp_path("run/models/best"));
    FAIL() << "gen-0009 is not there";
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("names the run's best model gen-0009, but"), std::string::npos) << e.what();
  }
  std::ofstream(temp_path("run/models/notes")) << "gen-0007 was good\n";
  EXPECT_THROW(read_model_info(temp_path("run/models/notes")), ModelFileError) << "only a bare name is followed";
}

// A folder given as a model was refused in the C++ library's words ("basic_filebuf::underflow
// error reading the file: Is a directory"), naming neither the path nor what to give.
TEST(PlayFile, AFolderGivenAsAModelIsNamedAsOne) {
  std::filesystem::create_directories(temp_path("a-run-folder"));
  try {
    read_model_info(temp_path("a-run-folder"));
    FAIL() << "read a folder";
  } catch (const ModelFileError& e) {
    EXPECT_NE(
        std::string(e.what()).find("model file '" + temp_path("a-run-folder") + "' is a folder: give a play file"),
        std::string::npos)
        << e.what();
  }
}

TEST(PlayFile, ReadsFreshNetsOfEveryGameAsLibTorchDoes) {
  write_random_play_file(temp_path("square.net"), {2, 16}, 3);
  write_random_play_file(temp_path("family.net"), {1, 8}, 4, BoardSet::parse("4x4,7x7,hexagon"),
                         {.halfmove_limit = 80});
  write_random_play_file(temp_path("schataxx.net"), {1, 8}, 5, {}, {}, SchataxxGame::kName);
  for (const char* net : {"square.net", "family.net", "schataxx.net"}) expect_read_as_libtorch_reads(temp_path(net));
}

TEST(PlayFile, TheNetworkWithoutLibTorchAnswersAsLibTorchsDoes) {
  const std::string path = shipped("ataxx-7x7.net");
  AtaxxNet net = load_play_file(path);
  const std::vector<Position> positions = {Position::startpos(), Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 2")};
  std::vector<const Position*> pointers = {&positions[0], &positions[1]};
  const torch::Tensor planes = encode_batch(Encoding(7), pointers);
  torch::NoGradGuard no_grad;
  const NetworkOutput expected = net->forward(planes);
  const torch::Tensor wdl = torch::softmax(expected.wdl_logits, 1);

  const auto plain = EigenNetwork::load(path, InferenceOptions{});  // float32
  const BatchDevice::Output out = plain->forward(0, planes.data_ptr<float>(), 2);
  const int policy_size = plain->io().policy_size();
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < policy_size; ++i)
      ASSERT_NEAR(out.policy_logits[p * policy_size + i], expected.policy_logits[p][i].item<float>(), 1e-3f)
          << p << " " << i;
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(out.wdl[3 * p + k], wdl[p][k].item<float>(), 1e-4f);
    EXPECT_NEAR(out.lead[p], expected.piece_diff[p].item<float>(), 1e-4f);
  }
}

// The archive of a play file with `from` replaced by `to` (the same length) at its first place
// after `after` (or everywhere), in its container again, so that the checksum holds and the
// damage reaches the readers behind it.
std::string damaged_copy(const std::string& archive, std::string_view after, std::string_view from, std::string_view to,
                         bool everywhere = false) {
  std::string changed = archive;
  const std::size_t start = changed.find(after);
  std::size_t at = changed.find(from, start == std::string::npos ? 0 : start);
  EXPECT_NE(at, std::string::npos) << from;
  for (; at != std::string::npos; at = everywhere ? changed.find(from, at) : std::string::npos)
    changed.replace(at, from.size(), to);
  const std::string path = temp_path("damaged.net");
  std::ofstream(path, std::ios::binary) << in_model_container(changed);
  return path;
}

// Refused by this reader, and by LibTorch's networks, which are loaded through it: a crafted file
// whose checksum was made again never reaches LibTorch's own unpickler.
void expect_refused(const std::string& path, const std::string& reason) {
  for (const bool libtorch : {false, true}) {
    try {
      if (libtorch)
        load_play_file(path);
      else
        read_play_file_weights(path);
      ADD_FAILURE() << "read despite: " << reason << (libtorch ? " (LibTorch's network)" : "");
    } catch (const ModelFileError& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

TEST(PlayFile, ADamagedArchiveInAnIntactContainerIsAModelFileErrorWithItsCause) {
  write_random_play_file(temp_path("whole.net"), {1, 8}, 6);
  const std::string file = read_whole_file(temp_path("whole.net"));
  const std::string archive(model_archive(file, "whole.net"));
  expect_refused(damaged_copy(archive, "", "data.pkl", "data.pkX", true), "its archive has no data.pkl");
  // The pickle's first opcode after PROTO 2, GLOBAL '__torch__ Module', made one no archive uses.
  expect_refused(damaged_copy(archive, "",
                              "\x80\x02"
                              "c__torch__",
                              "\x80\x02\xff__torch__"),
                 "opcode 0xff");
  expect_refused(damaged_copy(archive, "input_bn", "running_var", "running_vaX"), "it has no input_bn.running_var");
  // input_conv's weight (8 x 6 x 3 x 3 = 432 floats, BININT2 0x01b0) claims a larger storage.
  expect_refused(damaged_copy(archive, "input_conv", "M\xb0\x01", "M\xb0\x7f"),
                 "input_conv.weight: its storage is shorter than it says");
  expect_refused(damaged_copy(archive, "", "PK\5\6", "PK\5\7"), "no end of central directory record");
}

TEST(PlayFile, RefusesWhatLibTorchsReaderRefusesWithTheSameReason) {
  EXPECT_THROW(read_model_info(temp_path("missing.net")), ModelFileError);
  std::ofstream(temp_path("foreign.net")) << "this is not a model";
  EXPECT_THROW(read_model_info(temp_path("foreign.net")), ModelFileError);

  torch::manual_seed(1);
  AtaxxNet net(ModelShape{1, 8});
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1));
  save_checkpoint(temp_path("k.ckpt"), net, sgd, CheckpointInfo{});
  try {
    read_model_info(temp_path("k.ckpt"));
    FAIL();
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("is an ataxx-zero checkpoint, expected an ataxx-zero play file"),
              std::string::npos)
        << e.what();
  }
}

// Pickles written by hand, opcode by opcode.
std::shared_ptr<PickleValue> unpickled(std::string_view text) { return unpickle(text); }

void expect_pickle_error(std::string_view text, const std::string& reason) {
  try {
    unpickle(text);
    ADD_FAILURE() << "no error for: " << reason;
  } catch (const PickleError& e) {
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
}

TEST(TorchPickle, ATensorsValuesFollowItsStridesAndStayInItsStorage) {
  const std::vector<float> stored = {0, 1, 2, 3, 4, 5};
  const std::string_view storage(reinterpret_cast<const char*>(stored.data()), stored.size() * sizeof(float));
  // [2, 2] from element 1 with strides (1, 2): the transpose of [[1, 2], [3, 4]].
  PickledTensor tensor{"0", "FloatStorage", 6, 1, {2, 2}, {1, 2}};
  EXPECT_EQ(float_values(tensor, storage), std::vector<float>({1, 3, 2, 4}));

  const auto expect_refused = [&](PickledTensor view, const std::string& reason) {
    try {
      float_values(view, storage);
      ADD_FAILURE() << reason;
    } catch (const PickleError& e) {
      EXPECT_EQ(std::string(e.what()), reason);
    }
  };
  expect_refused({"0", "FloatStorage", 6, 0, {3}, {3}}, "it reaches past its storage");
  // A reach that wraps around to 0 in 64 bits: (5 - 1) x 2^62.
  expect_refused({"0", "FloatStorage", 6, 0, {5}, {std::int64_t{1} << 62}}, "it reaches past its storage");
  expect_refused({"0", "FloatStorage", 6, 0, {3}, {std::numeric_limits<std::int64_t>::max()}},
                 "it reaches past its storage");
  expect_refused({"0", "FloatStorage", 6, 6, {1}, {1}}, "it reaches past its storage");
  expect_refused({"0", "FloatStorage", 7, 0, {7}, {1}}, "its storage is shorter than it says");
  expect_refused({"0", "FloatStorage", 6, 0, {4, 2}, {0, 0}}, "it has more elements than its storage");
  expect_refused({"0", "LongStorage", 6, 0, {1}, {1}}, "it is a LongStorage, not float32");
  EXPECT_TRUE(float_values({"0", "FloatStorage", 6, 0, {0, 5}, {5, 1}}, storage).empty());
}

TEST(TorchPickle, ReadsNumbersTextAndContainers) {
  // {'a': (1, -2, 1.0), 'b': [300, 'x']}
  const std::string text = "\x80\x02}(X\x01\0\0\0a"s + "K\x01\x8a\x01\xfe" + "G\x3f\xf0" + std::string(6, '\0') +
                           "\x87X\x01\0\0\0b"s + "](M\x2c\x01\x8c\x01xeu.";
  const auto value = unpickled(text);
  ASSERT_EQ(value->kind, PickleValue::Kind::kDict);
  const PickleValue* a = value->field("a");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->items.size(), 3u);
  EXPECT_EQ(a->items[0]->integer, 1);
  EXPECT_EQ(a->items[1]->integer, -2);
  EXPECT_EQ(a->items[2]->real, 1.0);
  const PickleValue* b = value->field("b");
  ASSERT_TRUE(b);
  ASSERT_EQ(b->items.size(), 2u);
  EXPECT_EQ(b->items[0]->integer, 300);
  EXPECT_EQ(b->items[1]->text, "x");
}

TEST(TorchPickle, RefusesCyclesDeepNestingAndMalformedStacks) {
  expect_pickle_error("]q\0h\0a."sv, "placed in itself");
  expect_pickle_error(
      "]q\0]h\0ah\0K\x01"
      "a."sv,
      "changed after it was placed");
  expect_pickle_error(std::string(100, ']') + std::string(99, 'a') + ".", "nested deeper than 64");
  expect_pickle_error("K\x01K\x02.", "stack of other than one value");
  expect_pickle_error("X\xff\0\0\0ab"sv, "truncated");
  expect_pickle_error("h\x07.", "no memo entry 7");
  expect_pickle_error("(a.", "stack underflow");
  expect_pickle_error("cos\nsystem\nX\x02\0\0\0ls\x85R."sv, "a call of 'os system'");
}

}  // namespace
}  // namespace ataxx
