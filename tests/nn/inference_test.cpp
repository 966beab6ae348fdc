// The network's output layout, and the inference server's evaluation cache under load.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "nn/direct_convolution.h"
#include "nn/inference_server.h"
#include "nn/model_file.h"
#include "games/schataxx/encoding.h"
#include "tests/test_paths.h"

namespace ataxx {
namespace {

torch::Tensor parameter(AtaxxNet& net, const std::string& name) {
  for (auto& p : net->named_parameters())
    if (p.key() == name) return p.value();
  ADD_FAILURE() << "no parameter " << name;
  return {};
}

TEST(Network, PolicyLogitsSitWherePolicyIndexLooksForThem) {
  // A network that passes the "empty squares" plane straight through to every policy channel,
  // channel k scaled by k + 1: its logits are non-zero exactly at the one empty square's entries.
  torch::NoGradGuard no_grad;
  AtaxxNet net(ModelShape{1, 8});
  for (auto& p : net->parameters()) p.zero_();
  parameter(net, "input_conv.weight")[0][3][1][1] = 1.0f;  // channel 0 <- empty plane, centre tap
  parameter(net, "input_bn.weight").fill_(1.0f);
  parameter(net, "policy_conv.weight")[0][0][1][1] = 1.0f;
  parameter(net, "policy_bn.weight").fill_(1.0f);
  auto policy_out = parameter(net, "policy_out.weight");
  for (int k = 0; k < kMoveTypes; ++k) policy_out[k][0][0][0] = k + 1.0f;
  net->eval();

  const Board& board = board_7x7();
  const Encoding encoding(7);
  const Square hole = 4 * 7 + 4;  // e5
  const Bitboard o = bit(0);
  const Position pos = Position::from_bitboards(board, board.cells & ~bit(hole) & ~o, o, 0, Color::kX);
  const Position* positions[] = {&pos};
  const torch::Tensor logits = net->forward(encode_batch(encoding, positions)).policy_logits[0];
  ASSERT_EQ(logits.size(0), encoding.policy_size());

  int non_zero = 0;
  for (int index = 0; index < encoding.pass_index(); ++index) {
    if (logits[index].item<float>() == 0.0f) continue;
    ++non_zero;
    EXPECT_EQ(index % encoding.area(), encoding.canvas_cell(board, hole)) << "index " << index;
  }
  EXPECT_EQ(non_zero, kMoveTypes);
  MoveList moves;
  pos.generate_moves(moves);
  ASSERT_EQ(moves.size(), 1 + 16);  // the single and all 16 jumps to e5
  const float unit = logits[encoding.policy_index(board, Move::single(hole))].item<float>();
  for (const Move move : moves) {  // each move's type is its channel: (type + 1) units
    const int index = encoding.policy_index(board, move);
    EXPECT_FLOAT_EQ(logits[index].item<float>(), unit * (index / encoding.area() + 1));
  }
}

// Masked trunk and masked pooling: what lies around a board on a larger canvas changes nothing.
TEST(Network, OutputsDoNotDependOnTheCanvas) {
  torch::NoGradGuard no_grad;
  torch::manual_seed(5);
  AtaxxNet net(ModelShape{2, 16});
  for (auto& buffer : net->named_buffers())
    if (buffer.key().find("running_mean") != std::string::npos) buffer.value().uniform_(-0.5, 0.5);
  net->eval();
  for (const char* fen : {"x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", "x2o/1x2/4/o2x o 7 4"}) {
    const Position pos = Position::from_fen(fen);
    const Position* positions[] = {&pos};
    const Encoding tight(pos.board().size), wide(9);
    const NetworkOutput a = net->forward(encode_batch(tight, positions));
    const NetworkOutput b = net->forward(encode_batch(wide, positions));
    EXPECT_TRUE(torch::allclose(a.wdl_logits, b.wdl_logits, 1e-4, 1e-5)) << fen;
    EXPECT_TRUE(torch::allclose(a.piece_diff, b.piece_diff, 1e-4, 1e-5)) << fen;
    MoveList moves;
    pos.generate_moves(moves);
    for (const Move m : moves)
      EXPECT_NEAR(a.policy_logits[0][tight.policy_index(pos.board(), m)].item<float>(),
                  b.policy_logits[0][wide.policy_index(pos.board(), m)].item<float>(), 1e-4)
          << fen;
    EXPECT_NEAR(a.policy_logits[0][tight.pass_index()].item<float>(), b.policy_logits[0][wide.pass_index()].item<float>(),
                1e-4);
  }
}

struct Answer {
  std::vector<float> priors;
  Wdl value;
};

Answer ask(Evaluator& evaluator, const Position& pos) {
  MoveList moves;
  pos.generate_moves(moves);
  Answer answer;
  answer.priors.resize(moves.size());
  const EvalRequest request{&pos, std::span<const Move>(moves.begin(), moves.size()), answer.priors, &answer.value};
  evaluator.evaluate(std::span<const EvalRequest>(&request, 1));
  return answer;
}

void expect_same(const Answer& a, const Answer& b, const std::string& what) {
  ASSERT_EQ(a.priors.size(), b.priors.size()) << what;
  for (std::size_t i = 0; i < a.priors.size(); ++i) EXPECT_NEAR(a.priors[i], b.priors[i], 1e-5f) << what;
  EXPECT_NEAR(a.value.win, b.value.win, 1e-5f) << what;
  EXPECT_NEAR(a.value.loss, b.value.loss, 1e-5f) << what;
}

// The same network, given Schataxx's planes (schataxx/encoding.h): its policy covers Schataxx's
// layout, and it learns from a Schataxx position.
TEST(Network, TakesAnotherGamesPlanesAndLearnsItsPolicy) {
  const NetworkIo io{schataxx::kInputPlanes, schataxx::kMaskPlane, schataxx::kMovePlanes};
  torch::manual_seed(3);
  AtaxxNet net(ModelShape{1, 8}, io);
  std::vector<float> planes(schataxx::kInputSize);
  const schataxx::Position start = schataxx::Position::startpos();
  schataxx::encode(start, planes);
  const torch::Tensor x = torch::from_blob(planes.data(), {1, io.input_planes, 8, 8}).clone();
  const int target = schataxx::policy_index(schataxx::parse_move("Q@g8"));
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1));
  net->train();
  for (int step = 0; step < 60; ++step) {
    const NetworkOutput out = net->forward(x);
    ASSERT_EQ(out.policy_logits.size(1), schataxx::kPolicySize);
    ASSERT_EQ(out.ownership.size(1), 64);
    const torch::Tensor loss = torch::nn::functional::cross_entropy(out.policy_logits, torch::tensor({target}));
    sgd.zero_grad();
    loss.backward();
    sgd.step();
  }
  net->eval();
  const torch::Tensor policy = torch::softmax(net->forward(x).policy_logits, 1);
  EXPECT_GT(policy[0][target].item<float>(), 0.5f);
}

TEST(EvaluationCache, TellsHalfmoveClocksApart) {
  write_random_play_file(temp_path("clock.net"), {1, 8}, 5);
  InferenceOptions cached_options;
  cached_options.cache_entries = 4096;
  InferenceServer cached(temp_path("clock.net"), cached_options);
  InferenceServer plain(temp_path("clock.net"), InferenceOptions{});
  const Position fresh = Position::from_fen("x5o/7/7/7/7/7/o5x x 0 1");
  const Position late = Position::from_fen("x5o/7/7/7/7/7/o5x x 90 1");  // same board, the clock plane differs
  ASSERT_EQ(fresh.hash(), late.hash());
  const Answer fresh_answer = ask(plain, fresh), late_answer = ask(plain, late);
  ASSERT_NE(fresh_answer.value.win, late_answer.value.win) << "the network should see the clock";
  ask(cached, fresh);
  expect_same(ask(cached, late), late_answer, "late after fresh");
  expect_same(ask(cached, fresh), fresh_answer, "fresh again");
  EXPECT_EQ(cached.stats().cache_hits, 1U);
}

TEST(EvaluationCache, ManyCallersAndServerThreadsOnCollidingSlots) {
  write_random_play_file(temp_path("busy.net"), {1, 8}, 7);
  std::vector<Position> positions;
  for (const Position& p : {Position::startpos(), Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 2")}) {
    MoveList moves;
    p.generate_moves(moves);
    for (const Move m : moves) {
      Position child = p;
      child.make_move(m);
      positions.push_back(child);
    }
  }
  InferenceServer plain(temp_path("busy.net"), InferenceOptions{});
  std::vector<Answer> expected;
  for (const Position& p : positions) expected.push_back(ask(plain, p));

  InferenceOptions options;
  options.threads = 4;
  options.cache_entries = 7;  // far fewer slots than positions: writers meet on every slot
  options.deadline_us = 0;
  InferenceServer server(temp_path("busy.net"), options);
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 8; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 30; ++round)
        for (std::size_t i = 0; i < positions.size(); ++i) {
          const std::size_t at = (i * 7 + c * 3 + round) % positions.size();
          const Answer got = ask(server, positions[at]);
          bool same = got.priors.size() == expected[at].priors.size() &&
                      std::abs(got.value.win - expected[at].value.win) < 1e-5f;
          for (std::size_t m = 0; same && m < got.priors.size(); ++m)
            same = std::abs(got.priors[m] - expected[at].priors[m]) < 1e-5f;
          wrong += !same;
        }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(server.stats().cache_hits, 0U);
}

TEST(InferenceServer, ANewNetworkIsNotAnsweredFromTheOldOnesCache) {
  write_random_play_file(temp_path("old.net"), {1, 8}, 11);
  write_random_play_file(temp_path("new.net"), {1, 8}, 12);
  InferenceOptions options;
  options.cache_entries = 1024;
  InferenceServer server(temp_path("old.net"), options);
  ask(server, Position::startpos());
  server.load(temp_path("new.net"));
  InferenceServer fresh(temp_path("new.net"), InferenceOptions{});
  expect_same(ask(server, Position::startpos()), ask(fresh, Position::startpos()), "after load");
}

// The Eigen forward pass (nn/cpu_network.h) answers as LibTorch does: batch norms with real
// statistics to fold, every board of a family net, several positions in one batch (in parts of
// at most 16), a tower of 16 channels (im2col and a GEMM, LibTorch above 16 positions) or
// of 32 and 64 (the direct convolution, as the heads' 32 always are, at any batch); in bfloat16
// (a rounding error of 2^-8 a layer) and in int8 (of 1/255 of the largest input and 1/127 of
// the largest weight) to within the same few hundredths, where the processor has it, else refused.
class EigenPath : public testing::TestWithParam<std::tuple<int, Precision>> {};

TEST_P(EigenPath, AgreesWithTorchOnEveryBoard) {
  const auto [channels, precision] = GetParam();
  torch::manual_seed(7);
  AtaxxNet net(ModelShape{2, channels});
  {
    torch::NoGradGuard no_grad;
    for (auto& buffer : net->named_buffers()) {
      if (buffer.key().find("running_mean") != std::string::npos) buffer.value().uniform_(-0.5, 0.5);
      if (buffer.key().find("running_var") != std::string::npos) buffer.value().uniform_(0.5, 2.0);
    }
    for (auto& p : net->named_parameters())
      if (p.key().find("bn") != std::string::npos) p.value().uniform_(0.5, 1.5);
  }
  ModelInfo info;
  info.shape = {2, channels};
  info.boards = BoardSet::parse("7x7,8x8,hexagon");
  info.name = "folded";
  save_play_file(temp_path("family.net"), net, info);

  InferenceOptions eigen, torch_path;
  eigen.cpu_path = CpuPath::kEigen;
  torch_path.cpu_path = CpuPath::kTorch;
  eigen.bf16 = precision == Precision::kBf16;
  eigen.int8 = precision == Precision::kInt8;
  if (!DirectConvolution::available(precision)) {
    EXPECT_THROW(InferenceServer(temp_path("family.net"), eigen), std::invalid_argument);
    return;
  }
  InferenceServer a(temp_path("family.net"), eigen), b(temp_path("family.net"), torch_path);
  const std::vector<Position> boards = {
      Position::from_fen("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1"), Position::from_fen("x6o/8/8/3xo3/8/8/8/o6x o 3 2"),
      Position::startpos(*find_board("hexagon")), Position::from_fen("7/7/7/7/7/2xxo2/o5x o 5 9")};
  std::vector<Position> positions;  // 40 in one batch: the direct path splits it in parts
  for (int i = 0; i < 10; ++i) positions.insert(positions.end(), boards.begin(), boards.end());
  std::vector<MoveList> moves(positions.size());
  std::vector<std::array<float, kMaxMoves>> priors_a(positions.size()), priors_b(positions.size());
  std::vector<Wdl> values_a(positions.size()), values_b(positions.size());
  std::vector<EvalRequest> requests_a, requests_b;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    positions[i].generate_moves(moves[i]);
    const std::span<const Move> legal(moves[i].begin(), moves[i].size());
    requests_a.push_back({&positions[i], legal, std::span<float>(priors_a[i].data(), legal.size()), &values_a[i]});
    requests_b.push_back({&positions[i], legal, std::span<float>(priors_b[i].data(), legal.size()), &values_b[i]});
  }
  a.evaluate(requests_a);
  b.evaluate(requests_b);
  const float tolerance = precision == Precision::kFloat ? 1e-5f : 1e-2f;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    for (int m = 0; m < moves[i].size(); ++m) EXPECT_NEAR(priors_a[i][m], priors_b[i][m], tolerance) << positions[i].fen();
    EXPECT_NEAR(values_a[i].win, values_b[i].win, tolerance) << positions[i].fen();
    EXPECT_NEAR(values_a[i].loss, values_b[i].loss, tolerance) << positions[i].fen();
    EXPECT_NEAR(values_a[i].lead, values_b[i].lead, tolerance) << positions[i].fen();
  }
  // The lead is the piece-difference head's.
  torch::NoGradGuard no_grad;
  net->eval();
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const Position* one[] = {&positions[i]};
    const NetworkOutput out = net->forward(encode_batch(Encoding(positions[i].board().size), one));
    EXPECT_NEAR(values_b[i].lead, out.piece_diff[0].item<float>(), 1e-4f) << positions[i].fen();
    // The ownership head's, cell by cell (the cells' index order), on both paths; a gap's 0.
    const Board& board = positions[i].board();
    const Bitboard gaps = positions[i].gaps();
    const std::vector<float> owners_a = a.ownership(positions[i]), owners_b = b.ownership(positions[i]);
    ASSERT_EQ(owners_a.size(), static_cast<std::size_t>(AtaxxGame::cells(positions[i])));
    ASSERT_EQ(owners_b.size(), owners_a.size());
    for (std::size_t sq = 0; sq < owners_a.size(); ++sq) {
      const float expected =
          (gaps >> sq & 1) ? 0.0f : out.ownership[0][board.row[sq] * board.size + board.column[sq]].item<float>();
      EXPECT_NEAR(owners_a[sq], expected, tolerance) << positions[i].fen() << " cell " << sq;
      EXPECT_NEAR(owners_b[sq], expected, 1e-4f) << positions[i].fen() << " cell " << sq;
    }
  }
}
INSTANTIATE_TEST_SUITE_P(ChannelsPrecision, EigenPath,
                         testing::Combine(testing::Values(16, 32, 64),
                                          testing::Values(Precision::kFloat, Precision::kBf16, Precision::kInt8)));

// A play file names its game: a Schataxx network is served for Schataxx, on the Eigen path as on
// LibTorch's, and an Ataxx server refuses it by name.
TEST(InferenceServer, ServesASchataxxNetworkForSchataxxOnly) {
  write_random_play_file(temp_path("schataxx.net"), {1, 8}, 11, {}, {100, 2}, SchataxxGame::kName);
  InferenceOptions eigen, torch_path;
  eigen.cpu_path = CpuPath::kEigen;
  torch_path.cpu_path = CpuPath::kTorch;
  BasicInferenceServer<SchataxxGame> a(temp_path("schataxx.net"), eigen), b(temp_path("schataxx.net"), torch_path);
  EXPECT_EQ(a.info().game, "schataxx");
  EXPECT_EQ(a.info().rules.repetition_limit, 2);
  schataxx::Position pos = schataxx::Position::startpos();
  for (const char* move : {"Q@g8", "P@b2", "g8b8"}) pos.make_move(schataxx::parse_move(move));
  schataxx::MoveList moves;
  pos.generate_moves(moves);
  std::vector<float> priors_a(moves.size()), priors_b(moves.size());
  Wdl value_a, value_b;
  const std::span<const schataxx::Move> legal(moves.begin(), moves.size());
  const BasicEvalRequest<SchataxxGame> request_a{&pos, legal, priors_a, &value_a}, request_b{&pos, legal, priors_b, &value_b};
  a.evaluate({&request_a, 1});
  b.evaluate({&request_b, 1});
  float total = 0;
  for (int m = 0; m < moves.size(); ++m) {
    EXPECT_NEAR(priors_a[m], priors_b[m], 1e-5f) << schataxx::to_string(moves[m]);
    total += priors_a[m];
  }
  EXPECT_NEAR(total, 1.0f, 1e-4f);
  EXPECT_NEAR(value_a.win, value_b.win, 1e-5f);
  try {
    InferenceServer ataxx(temp_path("schataxx.net"), InferenceOptions{});
    FAIL() << "an Ataxx server loaded a Schataxx network";
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("is a network of schataxx, not of ataxx"), std::string::npos) << e.what();
  }
}


}  // namespace
}  // namespace ataxx
