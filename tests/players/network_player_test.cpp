#include "players/network_player.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "nn/direct_convolution.h"
#include "players/mcts_player.h"
#include "tests/test_paths.h"
#include "util/parallel.h"

namespace ataxx {
namespace {

std::string random_model(const std::string& name) {
  const std::string path = temp_path(name);
  write_random_play_file(path, {1, 8}, 1);
  return path;
}

TEST(NetworkPlayer, PlayersOfOneModelShareOneServer) {
  const std::string model = random_model("shared.net");
  NetworkPlayerOptions options;
  options.model = model;
  options.search.visits = 16;
  auto server = shared_inference_server(model, options.inference);
  auto first = make_network_player(options);
  auto second = make_network_player(options);
  EXPECT_EQ(shared_inference_server(model, options.inference), server);
  for (Player* player : {first.get(), second.get()}) {
    player->new_game(1);
    EXPECT_TRUE(Position::startpos().is_legal(player->choose_move(Game())));
  }
  EXPECT_GE(server->stats().positions, 2U);  // both players' leaves went through the one server
  InferenceOptions other = options.inference;
  other.max_batch = 7;
  EXPECT_NE(shared_inference_server(model, other), server);  // other settings: another server
}

TEST(NetworkPlayer, TheSpecChoosesTheDevice) {
  const std::string model = random_model("device.net");
  auto player = make_player("nn:model=" + model + ",visits=8,device=cpu,threads=2,max_batch=32,cache=64");
  player->new_game(1);
  EXPECT_TRUE(Position::startpos().is_legal(player->choose_move(Game())));
  // Asked for CUDA on a machine without it: an error, never a silent run on the CPU.
  try {
    make_player("nn:model=" + model + ",device=cuda");
    if (!std::filesystem::exists("/dev/nvidia0")) ADD_FAILURE() << "cuda accepted without a GPU";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA"), std::string::npos) << e.what();
  }
  // bf16 on the CPU: the direct convolutions in bfloat16, where the processor has AVX512-BF16.
  if (DirectConvolution::available(Precision::kBf16))
    EXPECT_NO_THROW(make_player("nn:model=" + model + ",bf16=1"));
  else
    EXPECT_THROW(make_player("nn:model=" + model + ",bf16=1"), std::invalid_argument);
  // int8: the direct convolutions in 8-bit integers, where the processor has AVX2 or AVX512-VNNI.
  if (DirectConvolution::available(Precision::kInt8))
    EXPECT_NO_THROW(make_player("nn:model=" + model + ",int8=1"));
  else
    EXPECT_THROW(make_player("nn:model=" + model + ",int8=1"), std::invalid_argument);
  try {
    make_player("nn:model=" + model + ",cuda_graphs=1");
    ADD_FAILURE() << "cuda_graphs accepted on the CPU";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cuda_graphs needs a CUDA device"), std::string::npos) << e.what();
  }
}

TEST(NetworkPlayer, SearchesInBfloat16ByDefaultOnlyOnACpuThatHasIt) {
  EXPECT_EQ(bf16_by_default("cpu"), DirectConvolution::available(Precision::kBf16));
  EXPECT_FALSE(bf16_by_default("cuda"));
  auto read = [](const std::string& text) {
    PlayerSpec spec(text);
    return read_network_player_options<AtaxxGame>(spec).inference.bf16;
  };
  EXPECT_EQ(read("nn:model=m.net"), DirectConvolution::available(Precision::kBf16));
  EXPECT_EQ(NetworkPlayerOptions().inference.bf16, DirectConvolution::available(Precision::kBf16));
  EXPECT_FALSE(read("nn:model=m.net,device=cuda"));
  EXPECT_FALSE(read("nn:model=m.net,bf16=0"));
  EXPECT_TRUE(read("nn:model=m.net,device=cuda,bf16=1"));
}

TEST(NetworkPlayer, SearchesInInt8ByDefaultOnlyOnACpuThatHasIt) {
  EXPECT_EQ(int8_by_default("cpu"), DirectConvolution::available(Precision::kInt8));
  EXPECT_FALSE(int8_by_default("cuda"));
  auto read = [](const std::string& text) {
    PlayerSpec spec(text);
    return read_network_player_options<AtaxxGame>(spec).inference.int8;
  };
  EXPECT_EQ(read("nn:model=m.net"), DirectConvolution::available(Precision::kInt8));
  EXPECT_EQ(NetworkPlayerOptions().inference.int8, DirectConvolution::available(Precision::kInt8));
  EXPECT_FALSE(read("nn:model=m.net,device=cuda"));
  EXPECT_FALSE(read("nn:model=m.net,int8=0"));
}

TEST(NetworkPlayer, PlayersSearchWithTheirGamesPolicyTemperatureAndLcbUnlessTheSpecSays) {
  auto search = []<typename G>(G, const std::string& text) {
    PlayerSpec spec(text);
    return read_network_player_options<G>(spec).search;
  };
  EXPECT_FLOAT_EQ(search(AtaxxGame{}, "nn:model=m.net").policy_temperature, 2.0f);
  EXPECT_FLOAT_EQ(search(AtaxxGame{}, "nn:model=m.net,ptemp=1").policy_temperature, 1.0f);
  EXPECT_FLOAT_EQ(search(AtaxxGame{}, "nn:model=m.net").lcb_stdevs, 4.0f);
  EXPECT_FLOAT_EQ(search(AtaxxGame{}, "nn:model=m.net,lcb=0").lcb_stdevs, 0.0f);
  EXPECT_EQ(search(AtaxxGame{}, "nn:model=m.net").visits, 200);  // the player's other defaults stay
  EXPECT_EQ(search(AtaxxGame{}, "nn:model=m.net,cpuct=2").visits, 200);
  // Schataxx's: flatter priors still, the most visited move (docs/experiments.md).
  EXPECT_FLOAT_EQ(search(SchataxxGame{}, "nn:model=m.net").policy_temperature, 3.0f);
  EXPECT_FLOAT_EQ(search(SchataxxGame{}, "nn:model=m.net,ptemp=1").policy_temperature, 1.0f);
  EXPECT_FLOAT_EQ(search(SchataxxGame{}, "nn:model=m.net").lcb_stdevs, 0.0f);
  EXPECT_FLOAT_EQ(search(SchataxxGame{}, "nn:model=m.net,lcb=4").lcb_stdevs, 4.0f);
  // Self-play's searches: the net's own priors, the most visited move.
  EXPECT_FLOAT_EQ(SearchParams().policy_temperature, 1.0f);
  EXPECT_FLOAT_EQ(SearchParams().lcb_stdevs, 0.0f);
}

TEST(NetworkPlayer, AnAtaxxPlayerExploresLessOnBoardsOfMoreThan49CellsUnlessTheSpecSaysCpuct) {
  const std::string model = temp_path("c-puct.net");
  write_random_play_file(model, {1, 8}, 5, BoardSet::parse("6x6,7x7,8x8,hexagon"));
  // The c_puct each board's search took, one player playing them in turn.
  auto c_puct_on = [&](const std::string& options, std::initializer_list<BoardId> boards) {
    auto player = make_player("nn:model=" + model + ",visits=8" + options);
    std::vector<float> c_puct;
    for (const BoardId id : boards) {
      player->new_game(1);
      player->choose_move(Game(Position::startpos(board(id))));
      c_puct.push_back(dynamic_cast<MctsPlayer&>(*player).search().params().c_puct);
    }
    return c_puct;
  };
  const auto all = {BoardId::k8x8, BoardId::k6x6, BoardId::kHexagon, BoardId::k7x7};
  EXPECT_EQ(c_puct_on("", all), (std::vector<float>{1.0f, 1.5f, 1.0f, 1.5f}));
  EXPECT_EQ(c_puct_on(",cpuct=2", all), (std::vector<float>{2.0f, 2.0f, 2.0f, 2.0f}));
  EXPECT_FLOAT_EQ(play_c_puct<SchataxxGame>(SchataxxGame::start()), 1.0f);  // measured at 100 ms a move
}

TEST(NetworkPlayer, OnTheCpuTheSearchRunsItsOwnBatches) {
  auto threads = [](const std::string& text) {
    PlayerSpec spec(text);
    return read_network_player_options(spec).inference.threads;
  };
  EXPECT_EQ(threads("nn:model=m.net"), 0);
  EXPECT_EQ(threads("nn:model=m.net,device=cuda"), 1);
  EXPECT_EQ(threads("nn:model=m.net,threads=1"), 1);  // a server thread, where asked for
  EXPECT_EQ(NetworkPlayerOptions().inference.threads, 0);
}

TEST(NetworkPlayer, SearchThreadsAndTheGamesOfAMatchRunTheirBatchesAtOnce) {
  auto read = [](const std::string& text) {
    PlayerSpec spec(text);
    return read_network_player_options(spec);
  };
  EXPECT_EQ(read("nn:model=m.net").search_threads, 1);
  EXPECT_EQ(read("nn:model=m.net,search_threads=3").search_threads, 3);
  EXPECT_THROW(read("nn:model=m.net,search_threads=0"), std::invalid_argument);
  // 8 leaves in flight in all unless the spec says `batch`.
  EXPECT_EQ(read("nn:model=m.net").search.leaves_per_round, 8);
  EXPECT_EQ(read("nn:model=m.net,search_threads=2").search.leaves_per_round, 4);
  EXPECT_EQ(read("nn:model=m.net,search_threads=16").search.leaves_per_round, 1);
  EXPECT_EQ(read("nn:model=m.net,search_threads=2,batch=8").search.leaves_per_round, 8);
  // One lane per core: the callers of a shared server (the threads of a search, the games of a
  // match) ran their batches one at a time, on one core, before.
  EXPECT_EQ(read("nn:model=m.net").inference.caller_lanes, usable_cores());

  const std::string model = random_model("threads.net");
  auto player = make_player("nn:model=" + model + ",visits=200,search_threads=2");
  player->new_game(1);
  EXPECT_TRUE(Position::startpos().is_legal(player->choose_move(Game())));
  EXPECT_EQ(player->last_report().nodes, 200U);
}

TEST(NetworkPlayer, AnInferenceSpecReadsBackAsTheOptionsItWasMadeFrom) {
  NetworkPlayerOptions defaults;
  InferenceOptions options = defaults.inference;
  options.device = "cuda:1";
  options.bf16 = true;
  options.cuda_graphs = true;
  options.threads = 3;
  options.max_batch = 96;
  options.cache_entries = 5000;
  options.random_symmetry = true;
  PlayerSpec spec("nn:model=a.net," + inference_spec(options));
  EXPECT_EQ(read_network_player_options(spec).inference, options) << spec.text();
  PlayerSpec plain("nn:model=a.net," + inference_spec(defaults.inference));
  EXPECT_EQ(read_network_player_options(plain).inference, defaults.inference) << plain.text();
}

}  // namespace
}  // namespace ataxx
