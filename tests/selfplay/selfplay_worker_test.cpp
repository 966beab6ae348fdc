#include "selfplay/selfplay_worker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>

#include "games/schataxx/position.h"
#include "mcts/search.h"
#include "mcts/simple_evaluators.h"

namespace ataxx {
namespace {

RunConfig small_config() {
  RunConfig c;
  c.selfplay.threads = 1;
  c.selfplay.concurrent_games = 2;
  c.selfplay.visits = 24;
  c.selfplay.fast_visits = 8;
  c.selfplay.leaves_per_round = 4;
  c.selfplay.resign_threshold = -1;  // never
  c.selfplay.no_resign_share = 0;
  c.selfplay.games_per_chunk = 2;
  c.selfplay.opening_share = 1;
  return c;
}

struct Played {
  SelfPlayStats stats;
  int games_emitted = 0;
  int plies_emitted = 0;
  int draws_emitted = 0;
  std::vector<TrainingSample> samples;
};

Played play(const RunConfig& config, const std::vector<Position>& openings, Evaluator& evaluator, int games) {
  Played played;
  std::mutex mutex;
  const std::atomic<bool> stop{false};
  const Position& first = openings.front();
  const std::vector<SelfPlayStart<AtaxxGame>> starts = {
      {std::string(first.board().name), 1.0, Position::startpos(first.board()), openings}};
  played.stats = play_selfplay_games<AtaxxGame>(config, starts, 7, evaluator, games, stop, [&](SelfPlayBatch&& batch) {
    std::lock_guard lock(mutex);
    played.games_emitted += batch.games;
    played.plies_emitted += batch.plies;
    played.draws_emitted += batch.draws;
    for (auto& s : batch.samples) played.samples.push_back(std::move(s));
  });
  return played;
}

int visits_in(const TrainingSample& s) {
  return std::accumulate(s.visits.begin(), s.visits.end(), 0, [](int sum, const auto& v) { return sum + v.second; });
}

TEST(SelfPlayWorker, ResultsAreFromTheSideToMovesView) {
  // Whoever is to move captures the other side's last pieces at once, and wins.
  UniformEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  config.selfplay.temperature_plies = 0;
  for (const char* fen : {"7/7/7/7/2o4/2o4/x6 x 0 1", "7/7/7/7/2x4/2x4/o6 o 0 1"}) {
    const Played played = play(config, {Position::from_fen(fen)}, evaluator, 2);
    EXPECT_EQ(played.stats.games, 2) << fen;
    EXPECT_EQ(played.games_emitted, 2) << fen;
    EXPECT_EQ(played.plies_emitted, 2) << fen;
    EXPECT_EQ(played.stats.draws + played.draws_emitted, 0) << fen;
    ASSERT_EQ(played.samples.size(), 2U) << fen;  // one move a game
    for (const TrainingSample& s : played.samples) {
      EXPECT_EQ(s.result, 1) << fen;
      EXPECT_TRUE(s.final_board_known);
      const Bitboard winner = s.position.side_to_move() == Color::kX ? s.final_x : s.final_o;
      const Bitboard loser = s.position.side_to_move() == Color::kX ? s.final_o : s.final_x;
      EXPECT_EQ(popcount(loser), 0) << fen;
      EXPECT_GT(popcount(winner), 0) << fen;
    }
  }
}

TEST(SelfPlayWorker, BatchesAndStatsCountTheirGamesPliesAndDraws) {
  // x's neighbours are gaps, so its only moves are jumps, and at a halfmove limit of 1 a jump
  // ends the game in a draw.
  UniformEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  config.rules.halfmove_limit = 1;
  const Played played = play(config, {Position::from_fen("6o/7/7/7/7/--5/x-5 x 0 1")}, evaluator, 4);
  EXPECT_EQ(played.stats.games, 4);
  EXPECT_EQ(played.stats.draws, 4);
  EXPECT_EQ(played.draws_emitted, 4);
  EXPECT_EQ(played.stats.plies, 4);
  EXPECT_EQ(played.plies_emitted, 4);
  ASSERT_EQ(played.samples.size(), 4U);
  for (const TrainingSample& s : played.samples) EXPECT_EQ(s.result, 0);
}

// Uniform answers from a model named "first" for 30 batches, then from "second".
class TwoModels final : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch) override {
    uniform_.evaluate(batch);
    ++batches_;
  }
  std::string model_name() const override { return batches_ < 30 ? "first" : "second"; }

 private:
  UniformEvaluator uniform_;
  std::atomic<int> batches_{0};
};

TEST(SelfPlayWorker, GamesSpreadOverTheBoardsByShareAndStartFromTheirOpenings) {
  UniformEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  config.selfplay.opening_share = 0;  // every game from its board's start
  config.selfplay.concurrent_games = 8;
  const auto start = [](BoardId id, double share) {
    return SelfPlayStart<AtaxxGame>{std::string(board(id).name), share, Position::startpos(board(id)), {}};
  };
  const std::vector<SelfPlayStart<AtaxxGame>> starts = {
      start(BoardId::k4x4, 0.75), start(BoardId::kHexagon, 0.25), start(BoardId::k8x8, 0.0)};
  std::mutex mutex;
  std::map<std::string, int> first_moves;  // games per board: samples of fullmove 1 with x to move
  const std::atomic<bool> stop{false};
  play_selfplay_games<AtaxxGame>(config, starts, 11, evaluator, 40, stop, [&](SelfPlayBatch&& batch) {
    std::lock_guard lock(mutex);
    for (const TrainingSample& s : batch.samples) {
      EXPECT_NE(&s.position.board(), &board(BoardId::k8x8));
      for (const auto& [move, visits] : s.visits) EXPECT_TRUE(s.position.is_legal(move)) << s.position.fen();
      if (s.position.fullmove_number() == 1 && s.position.side_to_move() == Color::kX) {
        ++first_moves[std::string(s.position.board().name)];
        EXPECT_EQ(s.position.fen(), s.position.board().start_fen);
      }
    }
  });
  EXPECT_EQ(first_moves["4x4"] + first_moves["hexagon"], 40);
  EXPECT_GT(first_moves["4x4"], first_moves["hexagon"]);
  EXPECT_GT(first_moves["hexagon"], 0);
}

TEST(SelfPlayWorker, EverySampleNamesTheModelThatPlayedIt) {
  TwoModels evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  const Played played = play(config, {Position::startpos()}, evaluator, 4);
  std::map<std::string, int> models;
  for (const TrainingSample& s : played.samples) ++models[s.model];
  EXPECT_EQ(models.size(), 2U);
  EXPECT_GT(models["first"], 0);
  EXPECT_GT(models["second"], 0);
}

// x is lost in every position: its value is a loss, o's a win.
class XIsLost final : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch) override {
    uniform_.evaluate(batch);
    for (const EvalRequest& r : batch) *r.value = r.position->side_to_move() == Color::kX ? Wdl{0, 0, 1} : Wdl{1, 0, 0};
  }

 private:
  UniformEvaluator uniform_;
};

TEST(SelfPlayWorker, ResignedGamesHaveNoFinalBoardTargets) {
  XIsLost evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  config.selfplay.resign_threshold = -0.5;
  const Played resigned = play(config, {Position::startpos()}, evaluator, 4);
  EXPECT_EQ(resigned.stats.resigned, 4);
  ASSERT_FALSE(resigned.samples.empty());
  for (const TrainingSample& s : resigned.samples) {
    EXPECT_FALSE(s.final_board_known);
    EXPECT_EQ(s.result, s.position.side_to_move() == Color::kX ? -1 : 1);
  }
  // Played out instead (no resignation): the final board is known and counted as a would-resign.
  config.selfplay.no_resign_share = 1;
  config.selfplay.fast_visits = 2;
  config.selfplay.full_search_share = 0.1;
  const Played played_out = play(config, {Position::startpos()}, evaluator, 2);
  EXPECT_EQ(played_out.stats.resigned, 0);
  EXPECT_EQ(played_out.stats.would_resign, 2);
  for (const TrainingSample& s : played_out.samples) EXPECT_TRUE(s.final_board_known);
}

TEST(SelfPlayWorker, OnlyFullSearchesGiveSamplesAndTheyAddAllTheirVisits) {
  UniformEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 0;
  EXPECT_TRUE(play(config, {Position::startpos()}, evaluator, 2).samples.empty());

  config.selfplay.full_search_share = 1;
  const Played played = play(config, {Position::startpos()}, evaluator, 2);
  EXPECT_EQ(static_cast<int>(played.samples.size()), played.stats.plies);
  EXPECT_EQ(played.stats.simulations, static_cast<std::uint64_t>(played.stats.plies) * config.selfplay.visits);
  // Each target holds the visits added after the noise and those kept from the previous move.
  int with_reused_visits = 0;
  for (const TrainingSample& s : played.samples) {
    EXPECT_GE(visits_in(s), config.selfplay.visits - 1);
    with_reused_visits += visits_in(s) > config.selfplay.visits - 1;
  }
  EXPECT_GT(with_reused_visits, static_cast<int>(played.samples.size()) / 2);
}

// The mean share of a target's visits that its most visited move holds.
double mean_top_share(const std::vector<TrainingSample>& samples) {
  double sum = 0;
  for (const TrainingSample& s : samples) {
    int top = 0;
    for (const auto& [move, visits] : s.visits) top = std::max<int>(top, visits);
    sum += double(top) / visits_in(s);
  }
  return sum / samples.size();
}

// The mean top share of 4 games' targets, every search full, no noise, priors a softmax of each
// move's gain in pieces, with `change` made to the config.
double top_share_of_targets(const std::function<void(RunConfig&)>& change) {
  MaterialEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  config.selfplay.visits = 64;
  config.selfplay.dirichlet_weight = 0;
  change(config);
  return mean_top_share(play(config, {Position::startpos()}, evaluator, 4).samples);
}

// selfplay.policy_temperature flattens the priors the searches start from, and so their targets.
TEST(SelfPlayWorker, APolicyTemperatureAboveOneSpreadsTheTargetsVisits) {
  const double net_own = top_share_of_targets([](RunConfig&) {});
  const double flatter = top_share_of_targets([](RunConfig& c) { c.selfplay.policy_temperature = 4; });
  EXPECT_LT(flatter, net_own - 0.05) << net_own << " vs " << flatter;
}

// selfplay.c_puct: a larger exploration constant spreads the visits over more moves.
TEST(SelfPlayWorker, ALargerCPuctSpreadsTheTargetsVisits) {
  const double lower = top_share_of_targets([](RunConfig& c) { c.selfplay.c_puct = 1.0; });
  const double higher = top_share_of_targets([](RunConfig& c) { c.selfplay.c_puct = 4.0; });
  EXPECT_LT(higher, lower - 0.05) << lower << " vs " << higher;
}

// Games at full-search share 1 with a surprise weighting: samples written by their surprise,
// some twice or more (one after another), some not at all, about as many in all.
void expect_samples_written_by_surprise(const std::function<void(RunConfig&)>& weigh) {
  MaterialEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  weigh(config);
  const Played played = play(config, {Position::startpos()}, evaluator, 4);
  int repeated = 0;
  for (std::size_t i = 1; i < played.samples.size(); ++i)
    repeated += played.samples[i].position == played.samples[i - 1].position;
  EXPECT_GT(repeated, 0);
  EXPECT_NE(static_cast<int>(played.samples.size()) - repeated, played.stats.plies) << "none left out";
  ASSERT_FALSE(played.samples.empty());
  EXPECT_TRUE(played.samples.front().starts_game);
  const auto starts =
      std::count_if(played.samples.begin(), played.samples.end(), [](const auto& s) { return s.starts_game; });
  EXPECT_EQ(starts, played.stats.games) << "a game's first written sample starts it, and no copy does";
  EXPECT_NEAR(static_cast<double>(played.samples.size()), played.stats.plies, played.stats.plies / 3.0);
}

// selfplay.policy_surprise_weight: by how far each search strayed from the net's priors.
TEST(SelfPlayWorker, SurpriseWeightingWritesSurprisingSamplesMoreOften) {
  expect_samples_written_by_surprise([](RunConfig& c) { c.selfplay.policy_surprise_weight = 1; });
}

// selfplay.value_surprise_weight alone: by how far the game and the later searches strayed from
// the net's value of each sample's root.
TEST(SelfPlayWorker, ValueSurpriseWeightingWritesSurprisingSamplesMoreOften) {
  expect_samples_written_by_surprise([](RunConfig& c) { c.selfplay.value_surprise_weight = 1; });
}

// selfplay.surprising_fast_searches: some fast searches' samples written too (visits=64 with the
// tree kept: a full search's target has 63 visits or more, a fast one's fewer).
TEST(SelfPlayWorker, SurprisingFastSearchesAreWrittenToo) {
  MaterialEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.visits = 64;
  config.selfplay.full_search_share = 0.5;
  config.selfplay.policy_surprise_weight = 1;
  const auto fast_search_samples = [&] {
    int fast = 0;
    for (const TrainingSample& sample : play(config, {Position::startpos()}, evaluator, 4).samples) {
      int visits = 0;
      for (const auto& [move, count] : sample.visits) visits += count;
      fast += visits < 63;
    }
    return fast;
  };
  EXPECT_EQ(fast_search_samples(), 0) << "full searches alone";
  config.selfplay.surprising_fast_searches = true;
  EXPECT_GT(fast_search_samples(), 0);
}

// selfplay.lcb_stdevs: the moves past temperature_plies by their lower confidence bound, so other
// games than the most visited moves' from the same seed.
TEST(SelfPlayWorker, MovesByTheirLowerConfidenceBoundPlayOtherGames) {
  MaterialEvaluator evaluator;
  RunConfig config = small_config();
  config.selfplay.concurrent_games = 1;
  config.selfplay.full_search_share = 1;
  config.selfplay.visits = 64;
  config.selfplay.dirichlet_weight = 0;
  config.selfplay.temperature_plies = 0;
  auto positions = [&] {
    std::vector<std::string> fens;
    for (const TrainingSample& s : play(config, {Position::startpos()}, evaluator, 2).samples) fens.push_back(s.position.fen());
    return fens;
  };
  const std::vector<std::string> most_visited = positions();
  EXPECT_EQ(positions(), most_visited) << "the same seed plays the same games";
  config.selfplay.lcb_stdevs = 4;
  EXPECT_NE(positions(), most_visited);
}

class BreaksAfter final : public Evaluator {
 public:
  explicit BreaksAfter(int calls) : left_(calls) {}
  void evaluate(std::span<const EvalRequest> batch) override {
    if (left_-- <= 0) throw std::runtime_error("inference device lost");
    uniform_.evaluate(batch);
  }

 private:
  std::atomic<int> left_;
  UniformEvaluator uniform_;
};

TEST(SelfPlayWorker, AFailingWorkerStopsThePoolWithAnError) {
  BreaksAfter evaluator(50);
  RunConfig config = small_config();
  config.selfplay.threads = 3;
  try {
    play(config, {Position::startpos()}, evaluator, 100);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("self-play worker"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("inference device lost"), std::string::npos) << e.what();
  }
}

TEST(SelfPlayWorker, AnOpeningThatIsAlreadyOverIsRefusedByItsFen) {
  RunConfig config = small_config();
  config.rules.halfmove_limit = 50;
  const std::vector<Position> openings = {Position::from_fen("x5o/7/7/7/7/7/o5x x 49 30"),
                                          Position::from_fen("x5o/7/7/7/7/7/o5x x 50 30")};
  UniformEvaluator evaluator;
  try {
    play(config, openings, evaluator, 4);
    ADD_FAILURE() << "self-play started from a finished game";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("opening 'x5o/7/7/7/7/7/o5x x 50 30'"), std::string::npos) << e.what();
  }
  config.rules.halfmove_limit = 100;
  EXPECT_EQ(play(config, openings, evaluator, 4).stats.games, 4);
}

TEST(SelfPlayWorker, PlaysSchataxxThroughTheSameWorker) {
  BasicUniformEvaluator<SchataxxGame> evaluator;
  RunConfig config = small_config();
  config.selfplay.full_search_share = 1;
  config.rules.halfmove_limit = 30;  // plies since the last drop, for short games
  const schataxx::Position start = schataxx::Position::startpos(schataxx::Variant::kBalanced);
  const std::vector<SelfPlayStart<SchataxxGame>> starts = {{"schataxx-balanced", 1.0, start, {}}};
  std::mutex mutex;
  std::vector<BasicTrainingSample<SchataxxGame>> samples;
  int games = 0;
  const std::atomic<bool> stop{false};
  const SelfPlayStats stats = play_selfplay_games<SchataxxGame>(
      config, starts, 5, evaluator, 2, stop, [&](BasicSelfPlayBatch<SchataxxGame>&& batch) {
        std::lock_guard lock(mutex);
        games += batch.games;
        for (auto& s : batch.samples) samples.push_back(std::move(s));
      });
  EXPECT_EQ(stats.games, 2);
  EXPECT_EQ(games, 2);
  ASSERT_GT(samples.size(), 4U);
  int starts_seen = 0;
  for (const auto& s : samples) {
    EXPECT_EQ(s.position.variant(), schataxx::Variant::kBalanced);
    starts_seen += s.position == start;
    ASSERT_FALSE(s.visits.empty());
    for (const auto& [move, visits] : s.visits) EXPECT_TRUE(s.position.is_legal(move)) << s.position.fen();
    EXPECT_TRUE(s.final_board_known);
    EXPECT_NE(s.final_x | s.final_o, 0U);
  }
  EXPECT_EQ(starts_seen, 2);  // both games from the variant's start
}

TEST(PolicySample, VisitCountsPast16BitsAreScaledNotClipped) {
  SearchResult result;
  result.moves = {parse_move("a6", board_7x7()), parse_move("b6", board_7x7()), parse_move("a5", board_7x7()),
                  parse_move("g2", board_7x7())};
  result.policy_target = {131070, 65535, 1, 0};
  const TrainingSample sample = policy_sample(Position::startpos(), result);
  ASSERT_EQ(sample.visits.size(), 3U);
  EXPECT_EQ(sample.visits[0].second, 65535);
  EXPECT_EQ(sample.visits[1].second, 32768);  // half of the first, as in the search
  EXPECT_EQ(sample.visits[2].second, 1);      // visited: kept
  result.policy_target = {300, 200, 1, 0};
  EXPECT_EQ(policy_sample(Position::startpos(), result).visits[1].second, 200);  // small counts unchanged
}

}  // namespace
}  // namespace ataxx
