#include "mcts/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

#include "games/ataxx/game.h"
#include "mcts/simple_evaluators.h"
#include "tests/mcts/search_checks.h"

namespace ataxx {
namespace {

// Uniform priors (or given ones at the root); value from a function of the position (default: a
// draw). Counts calls.
class ScriptedEvaluator final : public Evaluator {
 public:
  std::function<float(const Position&)> value_of = [](const Position&) { return 0.0f; };
  std::function<float(const Position&)> lead_of = [](const Position&) { return 0.0f; };  // Wdl::lead
  std::map<Move, float, bool (*)(Move, Move)> root_priors{[](Move a, Move b) { return to_string(a, board_7x7()) < to_string(b, board_7x7()); }};
  std::uint64_t root_hash = 0;
  // Where set, the priors of every position (before they are normalised), in place of the above.
  std::function<float(const Position&, Move)> prior_of;
  int requests = 0;
  int batches = 0;
  int largest_batch = 0;

  void evaluate(std::span<const EvalRequest> batch) override {
    ++batches;
    largest_batch = std::max<int>(largest_batch, batch.size());
    for (const EvalRequest& r : batch) {
      ++requests;
      float total = 0;
      for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const auto it = root_priors.find(r.moves[i]);
        r.priors[i] = r.position->hash() == root_hash && it != root_priors.end() ? it->second : 1.0f;
        if (prior_of) r.priors[i] = prior_of(*r.position, r.moves[i]);
        total += r.priors[i];
      }
      for (float& p : r.priors) p /= total;
      const float v = value_of(*r.position);
      *r.value = Wdl{.win = std::max(v, 0.0f), .draw = 1 - std::abs(v), .loss = std::max(-v, 0.0f), .lead = lead_of(*r.position)};
    }
  }
};

int visits_of(const SearchResult& result, Move move) {
  for (std::size_t i = 0; i < result.moves.size(); ++i)
    if (result.moves[i] == move) return result.visits[i];
  return -1;
}

TEST(Search, VisitCountsAddUp) {
  UniformEvaluator evaluator;
  Search search(with_visits(500), 1);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_EQ(result.total_visits, 500);
  EXPECT_EQ(std::accumulate(result.visits.begin(), result.visits.end(), 0), 499);  // the root's own visit
  EXPECT_EQ(result.moves.size(), 16U);
}

TEST(Search, FollowsTheMoveWhoseChildIsGood) {
  // Every position where x holds b6 is won for x: search should settle on b6.
  ScriptedEvaluator evaluator;
  evaluator.value_of = [](const Position& pos) {
    const bool x_on_b6 = pos.pieces(Color::kX) & bit(5 * 7 + 1);
    return !x_on_b6 ? 0.0f : pos.side_to_move() == Color::kX ? 1.0f : -1.0f;
  };
  Search search(with_visits(400), 1);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_EQ(result.best_move(), parse_move("b6", board_7x7()));
  EXPECT_GT(visits_of(result, parse_move("b6", board_7x7())), 300);
  EXPECT_GT(result.value, 0.5f);
}

TEST(Search, PriorsSteerExplorationWhenValuesAreEqual) {
  ScriptedEvaluator evaluator;
  evaluator.root_hash = Position::startpos().hash();
  evaluator.root_priors[parse_move("f2", board_7x7())] = 50.0f;  // all others 1
  Search search(with_visits(200), 1);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_EQ(result.best_move(), parse_move("f2", board_7x7()));
  for (std::size_t i = 0; i < result.moves.size(); ++i)
    if (result.moves[i] != parse_move("f2", board_7x7())) {
      EXPECT_LT(result.visits[i], visits_of(result, parse_move("f2", board_7x7())));
    }
}

// A search of one visit evaluates only the root: it played the first legal move (a1 cloned),
// far below the policy it had, and ties among few visits went to the first move too.
TEST(Search, AmongEquallyVisitedMovesThePolicysFavouriteIsPlayed) {
  ScriptedEvaluator evaluator;
  evaluator.root_hash = Position::startpos().hash();
  evaluator.root_priors[parse_move("f2", board_7x7())] = 5.0f;  // all others 1
  Search search(with_visits(1), 1);
  const SearchResult result = run_search(search, evaluator);
  ASSERT_EQ(result.total_visits, 1);
  EXPECT_EQ(result.best_move(), parse_move("f2", board_7x7()));
  ASSERT_FALSE(result.principal_variation.empty());
  EXPECT_EQ(result.principal_variation.front(), parse_move("f2", board_7x7()));

  SearchResult tied;
  tied.moves = {parse_move("b6", board_7x7()), parse_move("f2", board_7x7()), parse_move("a6", board_7x7())};
  tied.visits = {3, 3, 1};
  tied.priors = {0.2f, 0.5f, 0.3f};
  EXPECT_EQ(tied.best_move(), parse_move("f2", board_7x7()));
  tied.visits = {3, 2, 1};
  EXPECT_EQ(tied.best_move(), parse_move("b6", board_7x7())) << "visits first";
}

TEST(Search, APolicyTemperatureFlattensThePriorsAsASoftmaxOfTheLogitsOverIt) {
  ScriptedEvaluator evaluator;
  evaluator.root_hash = Position::startpos().hash();
  evaluator.root_priors[parse_move("f2", board_7x7())] = 49.0f;  // the 15 others 1: f2 has 49/64
  SearchParams params = with_visits(2);
  params.policy_temperature = 2.0f;
  Search search(params, 1);
  const SearchResult result = run_search(search, evaluator);
  ASSERT_EQ(result.priors.size(), 16U);
  const float f2 = 7.0f / (7.0f + 15.0f);  // the square roots: 7 against 15 x 1
  const float step = 1.0f / 65535.0f;      // the tree keeps priors in 16 bits
  for (std::size_t i = 0; i < result.moves.size(); ++i)
    EXPECT_NEAR(result.priors[i], result.moves[i] == parse_move("f2", board_7x7()) ? f2 : 1.0f / 22.0f, step);

  params.policy_temperature = 1.0f;
  Search untempered(params, 1);
  const SearchResult plain = run_search(untempered, evaluator);
  for (std::size_t i = 0; i < plain.moves.size(); ++i)
    EXPECT_NEAR(plain.priors[i], plain.moves[i] == parse_move("f2", board_7x7()) ? 49.0f / 64.0f : 1.0f / 64.0f, step);
}

TEST(Search, TerminalLeavesAreScoredWithoutTheEvaluator) {
  // x to move captures o's last piece with c2 (or b2 etc.): every move wins at once.
  const Position pos = Position::from_fen("7/7/7/7/7/1o5/x6 x 0 1");
  ScriptedEvaluator evaluator;
  Search search(with_visits(100), 1);
  search.set_root(pos);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_EQ(evaluator.requests, 1);  // the root alone
  const Move best = result.best_move();
  Position after = pos;
  after.make_move(best);
  EXPECT_EQ(after.outcome().result, Result::kXWins);
  EXPECT_NEAR(result.value, 1.0f, 0.02f);
}

// The visited tree as listed: the root first, each node after its parent by a legal move of the
// parent's position, its visits one (its own evaluation) more than its children's; at a higher
// floor, the same nodes less those under it.
TEST(Search, TheVisitedTreeListsEveryVisitedNodeAfterItsParent) {
  ScriptedEvaluator evaluator;
  Search search(with_visits(300), 1);
  run_search(search, evaluator);
  const auto tree = search.visited_tree(1);
  ASSERT_FALSE(tree.empty());
  EXPECT_EQ(tree[0].visits, 300);
  EXPECT_EQ(static_cast<int>(tree.size()), evaluator.requests);  // no finished games this early
  std::vector<Position> positions{Position::startpos()};
  std::vector<int> below(tree.size(), 0);
  for (std::size_t i = 1; i < tree.size(); ++i) {
    ASSERT_LT(tree[i].parent, i);
    Position pos = positions[tree[i].parent];
    MoveList legal;
    pos.generate_moves(legal);
    ASSERT_TRUE(std::ranges::find(legal, tree[i].move) != legal.end()) << i;
    pos.make_move(tree[i].move);
    positions.push_back(pos);
    below[tree[i].parent] += tree[i].visits;
  }
  for (std::size_t i = 0; i < tree.size(); ++i) {
    EXPECT_EQ(tree[i].visits, 1 + below[i]) << i;
    EXPECT_FALSE(tree[i].finished) << i;
  }
  const auto at_five = search.visited_tree(5);
  EXPECT_EQ(at_five.size(),
            static_cast<std::size_t>(std::ranges::count_if(tree, [](const auto& n) { return n.visits >= 5; })));
  for (const auto& node : at_five) EXPECT_GE(node.visits, 5);
  EXPECT_TRUE(search.visited_tree(301).empty());
}

// The moves that end the game lead to nodes listed as finished; the root is not.
TEST(Search, TheVisitedTreeMarksFinishedGames) {
  ScriptedEvaluator evaluator;
  Search search(with_visits(20), 1);
  search.set_root(Position::from_fen("7/7/7/7/7/1o5/x6 x 0 1"));  // every move takes o's last man
  run_search(search, evaluator);
  const auto tree = search.visited_tree(1);
  ASSERT_GT(tree.size(), 1U);
  EXPECT_FALSE(tree[0].finished);
  for (std::size_t i = 1; i < tree.size(); ++i) EXPECT_TRUE(tree[i].finished) << i;
}

// The principal variation starts with the move the search plays: here a win the solver proved (x
// takes o's last man) that another move outvisited (as it did before the pv followed best_move()).
TEST(Search, ThePrincipalVariationStartsWithTheMovePlayed) {
  ScriptedEvaluator evaluator;
  SearchParams params = with_visits(30);
  params.solver = true;
  Search search(params, 1);
  search.set_root(Position::from_fen("3o3/7/3x3/7/7/7/7 x 0 1"));
  const SearchResult result = run_search(search, evaluator);
  ASSERT_TRUE(result.winning_move);
  ASSERT_FALSE(result.principal_variation.empty());
  EXPECT_EQ(result.principal_variation.front(), *result.winning_move);
  EXPECT_EQ(result.principal_variation.front(), result.best_move());
}

// x to move on a 4x4 board that x all but fills: o's one piece (a1) is walled in, two cells are
// left (d3, d4). Whatever x plays, o must pass and x fills the board: a win in three plies. The
// proof takes both rules: x's last move wins (a proven win), so o's node, whose every move (the
// pass) leads there, is a proven loss, so x's move to it wins.
TEST(Search, TheSolverProvesAWinInThreePliesAndTheRootPlaysIt) {
  const Position pos = Position::from_fen("xxx1/xxx1/xxxx/oxxx x 0 1");
  for (const bool solver : {false, true}) {
    SearchParams params = with_visits(300);
    params.solver = solver;
    ScriptedEvaluator evaluator;  // every position a draw: only the proofs say otherwise
    Search search(params, 1);
    search.set_root(pos);
    const SearchResult result = run_search(search, evaluator);
    ASSERT_EQ(result.winning_move.has_value(), solver);
    if (!solver) continue;
    Position after = pos;
    after.make_move(*result.winning_move);
    EXPECT_EQ(result.best_move(), *result.winning_move);
    MoveList replies;
    after.generate_moves(replies);
    ASSERT_EQ(replies.size(), 1U);
    EXPECT_TRUE(replies[0].is_pass()) << "o is walled in";
    // The line goes on through the proven positions (it had stopped at the first): o's pass, then
    // x's move that fills the board.
    ASSERT_EQ(result.principal_variation.size(), 3U);
    EXPECT_TRUE(result.principal_variation[1].is_pass());
    after.make_move(result.principal_variation[1]);
    after.make_move(result.principal_variation[2]);
    EXPECT_TRUE(after.outcome().is_over());
  }
}

// 2,000 visits of the solver from pos, every position a draw but for the proofs, the root's prior
// `weight` to 1 for `favoured`.
SearchResult solve_favouring(const Position& pos, Move favoured, float weight) {
  SearchParams params = with_visits(2000);
  params.solver = true;
  ScriptedEvaluator evaluator;
  evaluator.prior_of = [&](const Position& at, Move move) { return at == pos && move == favoured ? weight : 1.0f; };
  Search search(params, 1);
  search.set_root(pos);
  return run_search(search, evaluator);
}

Result result_after(Position pos, std::span<const Move> line) {
  for (const Move move : line) pos.make_move(move);
  return pos.outcome().result;
}

// The same win in three plies has longer ones beside it: the jump b4d3 leaves o walled in still, and
// x two cells to fill, a win in five. The prior sends most visits to the jump, so both are proven:
// the root plays a win in three, reports its length, and its line is the proof (it had played the
// last win proven, whatever its length).
TEST(Search, TheSolverPlaysTheShortestWinItProvedAndSaysHowLong) {
  const Position pos = Position::from_fen("xxx1/xxx1/xxxx/oxxx x 0 1");
  const Move longer = parse_move("b4d3", board(BoardId::k4x4));
  const SearchResult result = solve_favouring(pos, longer, 30.0f);
  const auto place = [&](Move move) { return std::ranges::find(result.moves, move) - result.moves.begin(); };
  ASSERT_EQ(result.proven_plies_after[place(longer)], 5);
  EXPECT_EQ(visits_of(result, longer), *std::ranges::max_element(result.visits));
  ASSERT_EQ(result.proven_plies, 3);
  EXPECT_EQ(result.value, 1.0f);
  EXPECT_EQ(result.proven_plies_after[place(result.best_move())], 3);
  ASSERT_EQ(result.principal_variation.size(), 3U);
  EXPECT_EQ(result_after(pos, result.principal_variation), Result::kXWins);
}

// x to move with one man (d2) is lost whatever it plays: the clone d3 loses in two plies (o fills
// b4, the last cell), the jump d2b4 in four. The root plays the longest resistance, though the prior
// gives the clone most of its visits (it played the most visited), and says how long it holds.
TEST(Search, ALostRootPlaysTheLongestLoss) {
  const Position pos = Position::from_fen("o1oo/ooo1/ooox/oooo x 0 1");
  const Move clone = parse_move("d3", board(BoardId::k4x4)), jump = parse_move("d2b4", board(BoardId::k4x4));
  const SearchResult result = solve_favouring(pos, clone, 100.0f);
  ASSERT_EQ(result.moves.size(), 2U);
  ASSERT_EQ(result.proven_plies, -4);
  EXPECT_EQ(result.value, -1.0f);
  EXPECT_GT(visits_of(result, clone), visits_of(result, jump));
  EXPECT_EQ(result.best_move(), jump);
  ASSERT_EQ(result.principal_variation.size(), 4U);
  EXPECT_EQ(result_after(pos, result.principal_variation), Result::kOWins);
}

// x (a1) against o (e1): after x's jump a1c1, o takes x's only man at once (d1, d2 or c2), so the
// jump is a proven loss two plies deep. The search is led into it: the root's prior is almost all
// on it, every position looks won for x, and o tries its winning replies last (a twentieth of the
// others' prior), so the jump has most of the root's visits when the solver proves it lost.
struct ProvenLossTrap {
  static constexpr const char* kFen = "7/7/7/7/7/7/x3o2 x 0 1";
  Move trap = parse_move("a1c1", board_7x7());
  ScriptedEvaluator evaluator;

  ProvenLossTrap() {
    evaluator.value_of = [](const Position& pos) { return pos.side_to_move() == Color::kX ? 0.9f : -0.9f; };
    const std::uint64_t root = Position::from_fen(kFen).hash();
    evaluator.prior_of = [root, trap = trap](const Position& pos, Move move) {
      if (pos.hash() == root) return move == trap ? 100.0f : 0.1f;
      Position after = pos;
      after.make_move(move);
      return after.outcome().is_over() ? 0.05f : 1.0f;
    };
  }
  SearchResult search(int visits, float lcb_stdevs) {
    SearchParams params = with_visits(visits);
    params.solver = true;
    params.fpu_reduction = 0.0f;
    params.lcb_stdevs = lcb_stdevs;
    Search search(params, 1);
    search.set_root(Position::from_fen(kFen));
    return run_search(search, evaluator);
  }
  std::size_t index(const SearchResult& result) const {
    return static_cast<std::size_t>(std::ranges::find(result.moves, trap) - result.moves.begin());
  }
};

// Once the most visited move is proven lost, the root plays another (with the LCB's choice or
// without it): it had played the proven loss until another move outvisited it.
TEST(Search, AMoveProvenLostIsPlayedOnlyWhereEveryMoveIs) {
  for (const float lcb : {0.0f, 4.0f}) {
    ProvenLossTrap trap;
    bool proven_while_most_visited = false;
    for (int visits = 20; visits <= 600; visits += 20) {
      const SearchResult result = trap.search(visits, lcb);
      const std::size_t i = trap.index(result);
      if (result.values[i] > -1.0f) continue;
      proven_while_most_visited |= result.visits[i] == *std::ranges::max_element(result.visits);
      EXPECT_NE(result.best_move(), trap.trap) << "lcb " << lcb << ", " << visits << " visits";
    }
    EXPECT_TRUE(proven_while_most_visited) << "lcb " << lcb << ": the trap is no test";
  }
}

// A move proven lost is scored by its proof: it gets no more visits while another move is not lost
// (before, its mean of the visits before the proof kept it chosen for as many again).
TEST(Search, AMoveProvenLostGetsNoMoreVisits) {
  ProvenLossTrap trap;
  for (int visits = 20; visits <= 600; visits += 10) {
    const SearchResult proven = trap.search(visits, 0.0f);
    const std::size_t i = trap.index(proven);
    if (proven.values[i] > -1.0f) continue;
    const SearchResult later = trap.search(visits + 300, 0.0f);
    EXPECT_EQ(later.visits[i], proven.visits[i]) << "proven at " << visits << " visits";
    return;
  }
  FAIL() << "the trap was never proven lost";
}

// The 4x4 win in three plies above: once proven, the position after x's move and o's pass is won
// for x in the kept tree, and a timed search there plays the winning move without a visit more (it
// had thrown the proven subtree away, and searched on to the end of its time).
TEST(Search, AProvenWinIsKeptThroughTheMovesAndEndsATimedSearch) {
  SearchParams params = with_visits(300);
  params.solver = true;
  ScriptedEvaluator evaluator;
  Search search(params, 1);
  search.set_root(Position::from_fen("xxx1/xxx1/xxxx/oxxx x 0 1"));
  const SearchResult proof = run_search(search, evaluator);
  ASSERT_TRUE(proof.winning_move);
  ASSERT_EQ(proof.principal_variation.size(), 3U);
  search.advance(std::vector{proof.principal_variation[0], proof.principal_variation[1]});
  const int kept = search.result().total_visits;
  EXPECT_GT(kept, 0);
  search.set_time_limit(10.0);
  const SearchResult after = run_search(search, evaluator);
  ASSERT_TRUE(after.winning_move);
  EXPECT_EQ(*after.winning_move, proof.principal_variation[2]);
  EXPECT_EQ(after.best_move(), proof.principal_variation[2]);
  EXPECT_EQ(after.total_visits, kept);
}

// o to move in the same position, walled in: whatever it does, x fills the board. A timed search
// ends once the solver proves the root lost (it had searched on to the end of its time).
TEST(Search, AProvenLostRootEndsATimedSearch) {
  SearchParams params = with_visits(100'000'000);
  params.solver = true;
  params.time_limit_s = 10.0;
  ScriptedEvaluator evaluator;
  Search search(params, 1);
  search.set_root(Position::from_fen("xxx1/xxx1/xxxx/oxxx o 0 1"));
  const SearchResult result = run_search(search, evaluator);
  ASSERT_EQ(result.moves.size(), 1U);
  EXPECT_TRUE(result.best_move().is_pass());
  EXPECT_LT(result.total_visits, 1000);
}

TEST(Search, DirichletNoiseChangesTheSearchAndIsSeeded) {
  UniformEvaluator evaluator;
  auto visits_with = [&](float weight, std::uint64_t seed) {
    SearchParams params = with_visits(300);
    params.dirichlet_weight = weight;
    Search search(params, seed);
    return run_search(search, evaluator).visits;
  };
  EXPECT_EQ(visits_with(0.5f, 7), visits_with(0.5f, 7));
  EXPECT_NE(visits_with(0.5f, 7), visits_with(0.5f, 8));
  EXPECT_NE(visits_with(0.5f, 7), visits_with(0.0f, 7));
  EXPECT_EQ(visits_with(0.0f, 7), visits_with(0.0f, 8));  // without noise the seed does not matter
}

// The root's priors as the network gave them stay in the result beside the noised ones.
TEST(Search, TheResultKeepsTheRootsPriorsFromBeforeItsNoise) {
  UniformEvaluator evaluator;
  SearchParams params = with_visits(50);
  params.dirichlet_weight = 0.5f;
  Search noised(params, 7);
  const SearchResult result = run_search(noised, evaluator);
  const float uniform = 1.0f / static_cast<float>(result.moves.size());
  ASSERT_EQ(result.network_priors.size(), result.moves.size());
  float largest_change = 0.0f;
  for (std::size_t i = 0; i < result.moves.size(); ++i) {
    EXPECT_NEAR(result.network_priors[i], uniform, 1e-4f);
    largest_change = std::max(largest_change, std::abs(result.priors[i] - uniform));
  }
  EXPECT_GT(largest_change, 0.01f);  // the noise moved the search's own
  Search quiet(with_visits(50), 7);
  const SearchResult without_noise = run_search(quiet, evaluator);
  EXPECT_EQ(without_noise.network_priors, without_noise.priors);
}

// f2 wins for x and has most of the prior at the start; every other move draws.
SearchResult search_with_a_winning_favourite(float forced_playouts_k) {
  ScriptedEvaluator evaluator;
  evaluator.root_hash = Position::startpos().hash();
  evaluator.root_priors[parse_move("f2", board_7x7())] = 20.0f;  // 20/35; the 15 others 1/35 each
  const Bitboard f2 = bit(1 * 7 + 5);
  evaluator.value_of = [f2](const Position& pos) {
    const bool won = pos.pieces(Color::kX) & f2;
    return !won ? 0.0f : pos.side_to_move() == Color::kX ? 1.0f : -1.0f;
  };
  SearchParams params = with_visits(400);
  params.dirichlet_weight = 1e-6f;  // forced playouts need a noised root; this noise moves nothing
  params.forced_playouts_k = forced_playouts_k;
  Search search(params, 1);
  return run_search(search, evaluator);
}

TEST(Search, ForcedPlayoutsGiveEveryVisitedRootChildItsShare) {
  const float prior = 1.0f / 35;
  const float share = std::sqrt(2 * prior * 400);  // 4.8 visits
  auto least_visited = [](const SearchResult& result) {
    int least = 1 << 30;
    for (const int v : result.visits)
      if (v > 0) least = std::min(least, v);
    return least;
  };
  EXPECT_LT(least_visited(search_with_a_winning_favourite(0)), share - 1);
  const SearchResult forced = search_with_a_winning_favourite(2);
  EXPECT_GE(least_visited(forced), share - 1);  // the root's visits grew after the last check
  EXPECT_EQ(forced.best_move(), parse_move("f2", board_7x7()));
}

TEST(Search, PolicyTargetTakesTheForcedPlayoutsBack) {
  const SearchResult plain = search_with_a_winning_favourite(0);
  EXPECT_EQ(plain.policy_target, plain.visits);
  const SearchResult forced = search_with_a_winning_favourite(2);
  const int f2 = static_cast<int>(std::find(forced.moves.begin(), forced.moves.end(), parse_move("f2", board_7x7())) -
                                  forced.moves.begin());
  EXPECT_EQ(forced.policy_target[f2], forced.visits[f2]);
  int taken_back = 0;
  for (std::size_t i = 0; i < forced.visits.size(); ++i) {
    EXPECT_LE(forced.policy_target[i], forced.visits[i]);
    EXPECT_NE(forced.policy_target[i], 1);  // a child left with one visit drops out
    taken_back += forced.visits[i] - forced.policy_target[i];
  }
  // The drawing moves were given about 15 x 4 visits by force; most of them go.
  EXPECT_GT(taken_back, 30);
  const int plain_others = std::accumulate(plain.visits.begin(), plain.visits.end(), 0) - visits_of(plain, plain.best_move());
  const int target_others = std::accumulate(forced.policy_target.begin(), forced.policy_target.end(), 0) -
                            forced.policy_target[f2];
  EXPECT_LE(target_others, plain_others + 15);
}

TEST(Search, TreeReuseKeepsTheChosenSubtree) {
  MaterialEvaluator evaluator;
  Search search(with_visits(800), 1);
  const SearchResult first = run_search(search, evaluator);
  const Move best = first.best_move();
  search.advance(best);
  search.set_visits(0);  // no new simulations: what is left is exactly the kept subtree
  const SearchResult kept = run_search(search, evaluator);
  EXPECT_EQ(kept.total_visits, visits_of(first, best));
  Position expected = Position::startpos();
  expected.make_move(best);
  EXPECT_EQ(search.root_position(), expected);
  EXPECT_EQ(std::accumulate(kept.visits.begin(), kept.visits.end(), 0), kept.total_visits - 1);
}

// The player re-roots once for its own move and the reply: the same tree as two advances.
TEST(Search, AdvancingTwoMovesAtOnceKeepsTheSubtreeTheyLeadTo) {
  MaterialEvaluator evaluator;
  Search one_by_one(with_visits(800), 1), at_once(with_visits(800), 1);
  const SearchResult first = run_search(one_by_one, evaluator);
  run_search(at_once, evaluator);
  ASSERT_GE(first.principal_variation.size(), 2U);
  const Move line[] = {first.principal_variation[0], first.principal_variation[1]};
  one_by_one.advance(line[0]);
  one_by_one.advance(line[1]);
  at_once.advance(line);
  ASSERT_GT(one_by_one.root_visits(), 1);
  EXPECT_EQ(at_once.root_visits(), one_by_one.root_visits());
  EXPECT_EQ(at_once.root_position(), one_by_one.root_position());
  one_by_one.set_visits(0);
  at_once.set_visits(0);
  const SearchResult kept = run_search(at_once, evaluator), expected = run_search(one_by_one, evaluator);
  EXPECT_EQ(kept.visits, expected.visits);
  EXPECT_EQ(kept.principal_variation, expected.principal_variation);
}

// Every node the network evaluated keeps its value through re-roots: two plies down (a node
// evaluated while a grandchild), the root's and its visited children's are the network's own.
TEST(Search, TheNetworksValuesOfTheRootAndItsChildrenSurviveTwoAdvances) {
  ScriptedEvaluator evaluator;
  const auto network_value = [](const Position& pos) {
    return std::tanh(0.1f * (popcount(pos.pieces(pos.side_to_move())) - popcount(pos.pieces(~pos.side_to_move()))));
  };
  evaluator.value_of = network_value;
  evaluator.lead_of = [](const Position& pos) { return 0.01f * popcount(pos.pieces(~pos.side_to_move())); };
  Search search(with_visits(400), 1);
  const SearchResult first = run_search(search, evaluator);
  ASSERT_GE(first.principal_variation.size(), 2U);
  search.advance(first.principal_variation[0]);
  search.advance(first.principal_variation[1]);
  search.set_visits(0);  // nothing evaluated now: what is reported was kept
  const SearchResult kept = run_search(search, evaluator);
  const Position& root = search.root_position();
  ASSERT_TRUE(kept.root_network_value.has_value());
  EXPECT_NEAR(kept.root_network_value->expectation(), network_value(root), 1e-4);
  EXPECT_NEAR(kept.root_network_value->lead, evaluator.lead_of(root), 1e-4);
  EXPECT_NEAR(kept.root_network_value->win + kept.root_network_value->draw + kept.root_network_value->loss, 1.0f, 1e-4);
  int visited = 0;
  for (std::size_t i = 0; i < kept.moves.size(); ++i) {
    if (kept.visits[i] == 0) continue;
    ++visited;
    Position child = root;
    child.make_move(kept.moves[i]);
    ASSERT_TRUE(kept.network_values[i].has_value()) << i;
    EXPECT_NEAR(kept.network_values[i]->expectation(), -network_value(child), 1e-4);  // the mover's view
  }
  EXPECT_GT(visited, 0);
}

// A move the tree never chose leaves nothing to keep, even where a later move is in it.
TEST(Search, AdvancingPastAMoveTheTreeNeverChoseStartsAfresh) {
  MaterialEvaluator evaluator;
  Search search(with_visits(50), 1);
  const SearchResult first = run_search(search, evaluator);
  const auto unchosen = std::find(first.visits.begin(), first.visits.end(), 0);
  ASSERT_NE(unchosen, first.visits.end());
  Position after = Position::startpos();
  after.make_move(first.moves[unchosen - first.visits.begin()]);
  MoveList replies{};  // (GCC cannot see generate_moves fill it)
  after.generate_moves(replies);
  const Move line[] = {first.moves[unchosen - first.visits.begin()], replies[0]};
  search.advance(line);
  after.make_move(replies[0]);
  EXPECT_EQ(search.root_visits(), 0);
  EXPECT_EQ(search.root_position(), after);
}

SearchParams with_transpositions(int visits) {
  SearchParams params = with_visits(visits);
  params.transpositions = true;
  return params;
}

// Each root move's line, as the tree holds it, checked move by move against the rules.
void expect_legal_lines(const Search& search) {
  for (const Move first : search.result().moves) {
    Position pos = search.root_position();
    for (const Move move : search.line_after(first).moves) {
      MoveList legal;
      pos.generate_moves(legal);
      ASSERT_NE(std::find(legal.begin(), legal.end(), move), legal.end())
          << to_string(move, pos.board()) << " in " << pos.fen();
      pos.make_move(move);
    }
  }
}

// Counts the positions it is asked for that no legal moves lead to: a move a position does not
// have (a twin's moves copied to the wrong node) leaves its hash or its men inconsistent.
ScriptedEvaluator material_evaluator(int* inconsistent) {
  ScriptedEvaluator evaluator;
  evaluator.value_of = [inconsistent](const Position& pos) {
    if (pos.hash() != pos.compute_hash() || (pos.pieces(Color::kX) & pos.pieces(Color::kO))) ++*inconsistent;
    return std::clamp(5 * piece_lead<AtaxxGame>(pos), -0.9f, 0.9f);
  };
  return evaluator;
}

// Clone moves commute: a search meets many positions by more than one order of moves; with
// transpositions, a leaf whose twin the tree has expanded needs no evaluation.
TEST(Search, TranspositionsSpareTheEvaluationsOfPositionsTheTreeHolds) {
  int inconsistent = 0;
  ScriptedEvaluator plain_evaluator = material_evaluator(&inconsistent);
  ScriptedEvaluator shared_evaluator = material_evaluator(&inconsistent);
  Search plain(with_visits(3000), 1), shared(with_transpositions(3000), 1);
  const SearchResult plain_result = run_search(plain, plain_evaluator);
  const SearchResult shared_result = run_search(shared, shared_evaluator);
  EXPECT_EQ(shared_result.total_visits, plain_result.total_visits);
  EXPECT_GT(plain_evaluator.requests, 2900);
  EXPECT_LT(shared_evaluator.requests, plain_evaluator.requests * 9 / 10);
  EXPECT_EQ(std::accumulate(shared_result.visits.begin(), shared_result.visits.end(), 0),
            shared_result.total_visits - 1);
  EXPECT_EQ(inconsistent, 0);
  expect_legal_lines(shared);
}

// The positions remembered for transpositions follow their nodes into the kept subtree: a node
// expanded from a twin after the move has the twin's moves, legal where it stands.
TEST(Search, TranspositionsSurviveTreeReuse) {
  int inconsistent = 0;
  ScriptedEvaluator evaluator = material_evaluator(&inconsistent);
  Search search(with_transpositions(3000), 1);
  const SearchResult first = run_search(search, evaluator);
  search.advance(first.best_move());
  const int kept = search.root_visits();
  ASSERT_GT(kept, 100);
  const int requests_before = evaluator.requests;
  search.set_visits(kept + 30000);
  run_search(search, evaluator);
  EXPECT_LT(evaluator.requests - requests_before, 30000 * 9 / 10);
  EXPECT_EQ(inconsistent, 0);
  expect_legal_lines(search);
}

TEST(Search, WithoutReuseAdvanceStartsAfresh) {
  MaterialEvaluator evaluator;
  SearchParams params = with_visits(200);
  params.reuse_tree = false;
  Search search(params, 1);
  run_search(search, evaluator);
  search.advance(parse_move("b6", board_7x7()));
  search.set_visits(0);
  EXPECT_EQ(run_search(search, evaluator).total_visits, 0);
}

TEST(Search, ManyTreesShareBatches) {
  ScriptedEvaluator evaluator;
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> pointers;
  for (int i = 0; i < 8; ++i) {
    SearchParams params = with_visits(100);
    params.leaves_per_round = 4;
    searches.push_back(std::make_unique<Search>(params, i));
    pointers.push_back(searches.back().get());
  }
  run_searches(pointers, evaluator);
  for (const auto& search : searches) EXPECT_EQ(search->result().total_visits, 100);
  EXPECT_GT(evaluator.largest_batch, 8);
  EXPECT_LT(evaluator.batches, evaluator.requests / 4);
}

TEST(Search, AvoidsAThirdRepetitionThatLosesOnCount) {
  // x is a piece up (d4). After these seven jumps o could recreate the first position a third
  // time with g5g7, which ends the game with x winning on count.
  Game game(Position::from_fen("x5o/7/7/3x3/7/7/o5x x 0 1"));
  for (const char* m : {"a7a5", "g7g5", "a5a7", "g5g7", "a7a5", "g7g5", "a5a7"}) game.play(m);
  Game check = game;
  check.play("g5g7");
  ASSERT_EQ(check.outcome(), (Outcome{Result::kXWins, EndReason::kRepetition}));

  UniformEvaluator evaluator;  // every move alike, but for what the search itself finds
  Search aware(with_visits(800), 1);
  aware.set_root(game.position(), game.recent_hashes());
  const SearchResult result = run_search(aware, evaluator);
  EXPECT_LT(visits_of(result, parse_move("g5g7", board_7x7())), result.total_visits / 50);
  // Without the game's history the search cannot know, and treats g5g7 like any other jump.
  Search blind(with_visits(800), 1);
  blind.set_root(game.position());
  EXPECT_GT(visits_of(run_search(blind, evaluator), parse_move("g5g7", board_7x7())), 3 * visits_of(result, parse_move("g5g7", board_7x7())));
}

TEST(Search, TreeReuseCarriesTheRepetitionHistory) {
  // The same position reached by playing the shuffle through advance() instead of set_root.
  MaterialEvaluator evaluator;
  Search search(with_visits(50), 1);
  search.set_root(Position::from_fen("x5o/7/7/3x3/7/7/o5x x 0 1"));
  for (const char* m : {"a7a5", "g7g5", "a5a7", "g5g7", "a7a5", "g7g5", "a5a7"}) {
    run_search(search, evaluator);
    search.advance(parse_move(m, board_7x7()));
  }
  search.set_visits(800);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_LT(visits_of(result, parse_move("g5g7", board_7x7())), result.total_visits / 50);
}

TEST(Search, StopsAtTheNodeLimit) {
  UniformEvaluator evaluator;
  SearchParams params = with_visits(1'000'000);
  params.max_tree_bytes = 180'000;
  Search search(params, 1);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_LT(result.total_visits, 1000);
  EXPECT_GT(result.total_visits, 50);
}

TEST(Search, HoldsNoMoreMemoryThanItsBoundAsItSearchesAndMovesOn) {
  // Trees of about 4 MiB each move, one kept into the next: the arenas' capacity, the spare ones
  // kept for re-rooting included, stays within the bound the sizes alone would pass.
  // With transpositions, the positions remembered for them count within the bound too.
  MaterialEvaluator evaluator;
  for (const bool transpositions : {false, true}) {
    SearchParams params = with_visits(1'000'000);
    params.max_tree_bytes = std::size_t{4} << 20;
    params.transpositions = transpositions;
    Search search(params, 1);
    for (int move = 0; move < 6; ++move) {
      const SearchResult result = run_search(search, evaluator);
      EXPECT_LE(search.memory_bytes(), params.max_tree_bytes) << "move " << move << ", " << transpositions;
      EXPECT_GE(search.permille_full(), 800) << "move " << move;  // the tree filled its bound, near enough
      search.advance(result.best_move());
      EXPECT_LE(search.memory_bytes(), params.max_tree_bytes) << "move " << move << ", " << transpositions;
    }
  }
}

TEST(Search, TheLowerConfidenceBoundPrefersASureMoveToAMoreVisitedUnsureOne) {
  // f2's prior draws most visits to a subtree of draws and wins alike; b6 is a sure half win for x.
  ScriptedEvaluator evaluator;
  evaluator.root_hash = Position::startpos().hash();
  evaluator.root_priors[parse_move("f2", board_7x7())] = 400.0f;
  evaluator.root_priors[parse_move("b6", board_7x7())] = 40.0f;
  evaluator.value_of = [](const Position& pos) {
    const float for_x = pos.pieces(Color::kX) & bit(5 * 7 + 1) ? 0.5f : pos.hash() % 2 ? 1.0f : -0.5f;
    return pos.side_to_move() == Color::kX ? for_x : -for_x;
  };
  const Move f2 = parse_move("f2", board_7x7()), b6 = parse_move("b6", board_7x7());
  SearchParams params = with_visits(400);
  params.c_puct = 4.0f;
  Search most_visited(params, 1);
  const SearchResult plain = run_search(most_visited, evaluator);
  ASSERT_EQ(plain.best_move(), f2);
  ASSERT_GE(visits_of(plain, b6) * 10, visits_of(plain, f2));
  params.lcb_stdevs = 3.0f;
  Search lcb(params, 1);
  const SearchResult result = run_search(lcb, evaluator);
  EXPECT_EQ(result.visits, plain.visits);  // the search is the same: only the final choice differs
  EXPECT_EQ(result.best_move(), b6);
  EXPECT_EQ(result.principal_variation.front(), b6);
}

// KataGo's score utility, the piece lead as the score. Every leaf is a draw to the value head;
// the lead head sees the material: only the lead tells x's moves apart, and d5 (taking c6, d6
// and e6; c5 and e5 take two) is the best of them. Without the utility the visits stay spread.
TEST(Search, TheLeadUtilityPrefersTheMoveThatLeadsMostWhenValuesAreEqual) {
  ScriptedEvaluator evaluator;
  evaluator.lead_of = [](const Position& pos) { return std::clamp(10 * piece_lead<AtaxxGame>(pos), -1.0f, 1.0f); };
  const Position pos = Position::from_fen("7/2ooo2/7/3x3/7/7/o6 x 0 1");
  const Move d5 = parse_move("d5", board_7x7());
  SearchParams params = with_visits(400);
  Search plain(params, 1);
  plain.set_root(pos);
  ASSERT_LT(visits_of(run_search(plain, evaluator), d5), 100);
  params.lead_utility = 1.0f;
  Search leading(params, 1);
  leading.set_root(pos);
  const SearchResult result = run_search(leading, evaluator);
  EXPECT_EQ(result.best_move(), d5);
  EXPECT_GT(visits_of(result, d5), 200);
}

// A finished game is worth its result plus the utility of the lead on its board: of x's five
// moves that take o's last piece, the clones (c6, d6, e6: three men) are worth more than the
// jumps (d5c7, d5e7: two).
TEST(Search, TheLeadUtilityOfAFinishedGameIsItsBoardsLead) {
  const Position pos = Position::from_fen("3o3/7/3x3/7/7/7/7 x 0 1");
  const auto visits_to = [&](const SearchResult& result, std::initializer_list<const char*> moves) {
    int sum = 0;
    for (const char* move : moves) sum += visits_of(result, parse_move(move, board_7x7()));
    return sum;
  };
  ScriptedEvaluator evaluator;
  SearchParams params = with_visits(400);
  Search plain(params, 1);
  plain.set_root(pos);
  const SearchResult even = run_search(plain, evaluator);
  ASSERT_LT(visits_to(even, {"c6", "d6", "e6"}), 3 * visits_to(even, {"d5c7", "d5e7"}));
  params.lead_utility = 10.0f;
  Search leading(params, 1);
  leading.set_root(pos);
  const SearchResult result = run_search(leading, evaluator);
  EXPECT_GT(visits_to(result, {"c6", "d6", "e6"}), 10 * visits_to(result, {"d5c7", "d5e7"}));
}

// The search's own win/draw/loss (UAI's wdl): every leaf has the same value for its side to move,
// a 0.6 expectation with 0.4 of draw, so the root's draw chance is 0.4 however the visits fall,
// and its expectation (win - loss) the search's value.
TEST(Search, TheRootSearchValueIsTheMeanOfItsLeavesWinDrawAndLoss) {
  ScriptedEvaluator evaluator;
  evaluator.value_of = [](const Position&) { return 0.6f; };
  Search search(with_visits(300), 1);
  const SearchResult result = run_search(search, evaluator);
  ASSERT_TRUE(result.root_search_value);
  const Wdl& wdl = *result.root_search_value;
  EXPECT_NEAR(wdl.draw, 0.4f, 1e-4f);
  EXPECT_NEAR(wdl.win + wdl.draw + wdl.loss, 1.0f, 1e-5f);
  EXPECT_NEAR(wdl.expectation(), result.value, 1e-5f);  // no lead utility: the value is the expectation
  EXPECT_FALSE(Search(with_visits(1), 1).result().root_search_value) << "no value before the first visit";
}

// With the lead's utility, the value the search steers by is the expectation plus the utility of
// the lead; its win/draw/loss keep the expectation alone, and its lead is the side to move's.
TEST(Search, TheRootSearchValueLeavesTheLeadUtilityOut) {
  ScriptedEvaluator evaluator;
  evaluator.value_of = [](const Position& pos) { return std::clamp(5 * piece_lead<AtaxxGame>(pos), -1.0f, 1.0f); };
  evaluator.lead_of = [](const Position& pos) { return piece_lead<AtaxxGame>(pos); };
  SearchParams params = with_visits(300);
  params.lead_utility = 2.0f;
  Search search(params, 1);
  search.set_root(Position::from_fen("xxxx3/xxx4/7/7/7/7/6o x 0 1"));  // x leads by six men
  const SearchResult result = run_search(search, evaluator);
  ASSERT_TRUE(result.root_search_value);
  const Wdl& wdl = *result.root_search_value;
  EXPECT_GT(wdl.lead, 5.0f / 49);
  EXPECT_GT(wdl.expectation(), 0.5f);
  EXPECT_NEAR(result.value, wdl.expectation() + 2.0f * wdl.lead, 1e-4f);
  EXPECT_NEAR(wdl.win + wdl.draw + wdl.loss, 1.0f, 1e-5f);
}

// UCI's seldepth: the deepest leaf a search selected, below the most visited line's end; a new
// search counts its own.
TEST(Search, SelectiveDepthIsTheDeepestLeafOfTheSearch) {
  MaterialEvaluator evaluator;
  Search search(with_visits(2000), 1);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_GT(result.selective_depth, static_cast<int>(result.principal_variation.size()));
  search.advance(result.principal_variation.front());
  search.set_visits(1);  // the kept subtree has its visits: the next search selects nothing
  EXPECT_EQ(run_search(search, evaluator).selective_depth, 0);
}

// A finished game's search value is its result: o has no men left, x has won.
TEST(Search, TheRootSearchValueOfAFinishedGameIsItsResult) {
  ScriptedEvaluator evaluator;
  Search search(with_visits(10), 1);
  search.set_root(Position::from_fen("x6/7/7/7/7/7/7 o 0 1"));
  const SearchResult result = run_search(search, evaluator);
  ASSERT_TRUE(result.root_search_value);
  EXPECT_EQ(result.root_search_value->loss, 1.0f);  // for o, to move
  EXPECT_EQ(result.root_search_value->win + result.root_search_value->draw, 0.0f);
  EXPECT_NEAR(result.root_search_value->lead, -1.0f / 49, 1e-6f);
}

// UAI's searchmoves: the search goes on from a tree that visited every move, but only the named
// ones get its new visits and only they are reported and chosen.
TEST(Search, RestrictedRootMovesAloneAreSearchedReportedAndChosen) {
  MaterialEvaluator evaluator;
  SearchParams params = with_visits(400);
  params.lcb_stdevs = 4.0f;
  Search search(params, 1);
  const SearchResult full = run_search(search, evaluator);
  const Move a7c5 = parse_move("a7c5", board_7x7()), g1e3 = parse_move("g1e3", board_7x7());
  ASSERT_NE(full.best_move(), a7c5);
  ASSERT_NE(full.best_move(), g1e3);
  search.restrict_root_moves({a7c5, g1e3});
  search.set_visits(800);
  const SearchResult restricted = run_search(search, evaluator);
  ASSERT_EQ(restricted.moves.size(), 2U);
  EXPECT_EQ(visits_of(restricted, a7c5) + visits_of(restricted, g1e3),
            visits_of(full, a7c5) + visits_of(full, g1e3) + 400);
  EXPECT_TRUE(restricted.best_move() == a7c5 || restricted.best_move() == g1e3);
  EXPECT_EQ(restricted.principal_variation.front(), restricted.best_move());
  search.advance(restricted.best_move());  // a new root: every move again
  EXPECT_GT(run_search(search, evaluator).moves.size(), 2U);
}

TEST(Search, PrincipalVariationStartsWithTheBestMove) {
  MaterialEvaluator evaluator;
  Search search(with_visits(400), 1);
  const SearchResult result = run_search(search, evaluator);
  ASSERT_GE(result.principal_variation.size(), 2U);
  EXPECT_EQ(result.principal_variation[0], result.best_move());
  Position pos = Position::startpos();
  for (const Move m : result.principal_variation) {
    ASSERT_TRUE(pos.is_legal(m));
    pos.make_move(m);
  }
}

SearchResult three_moves() {
  SearchResult result;
  result.moves = {parse_move("a6", board_7x7()), parse_move("b6", board_7x7()), parse_move("f2", board_7x7())};
  result.visits = result.policy_target = {10, 70, 20};
  result.total_visits = 101;
  return result;
}

TEST(ChooseMove, TemperatureZeroIsTheMostVisited) {
  const SearchResult result = three_moves();
  std::mt19937_64 rng(1);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(choose_move(result, 0.0f, rng), parse_move("b6", board_7x7()));
}

TEST(ChooseMove, TemperatureOneSamplesInProportionToVisits) {
  const SearchResult result = three_moves();
  std::mt19937_64 rng(1);
  std::map<std::string, int> counts;
  constexpr int kSamples = 20000;
  for (int i = 0; i < kSamples; ++i) ++counts[to_string(choose_move(result, 1.0f, rng), board_7x7())];
  EXPECT_NEAR(counts["a6"] / double(kSamples), 0.1, 0.015);
  EXPECT_NEAR(counts["b6"] / double(kSamples), 0.7, 0.015);
  EXPECT_NEAR(counts["f2"] / double(kSamples), 0.2, 0.015);
  // A high temperature flattens the distribution.
  counts.clear();
  for (int i = 0; i < kSamples; ++i) ++counts[to_string(choose_move(result, 10.0f, rng), board_7x7())];
  EXPECT_GT(counts["a6"] / double(kSamples), 0.25);
}

// A move's forced playouts, which its policy target takes back, do not make it played: it had been
// sampled by its visits, forced ones and all.
TEST(ChooseMove, SamplesByThePolicyTargetNotTheForcedPlayouts) {
  SearchResult result = three_moves();
  result.policy_target = {0, 70, 20};  // a6's 10 visits all forced
  std::mt19937_64 rng(1);
  for (int i = 0; i < 2000; ++i) ASSERT_NE(choose_move(result, 1.0f, rng), parse_move("a6", board_7x7()));
}

// A temperature leaves a proof alone: a move proven to lose is never sampled, and a proven win is
// played (they had been sampled by their visits as any other).
TEST(ChooseMove, AProvenLossIsNeverSampledAndAProvenWinAlwaysPlayed) {
  SearchResult result = three_moves();
  result.proven_plies_after = {std::nullopt, -2, std::nullopt};  // b6, the most visited, loses
  std::mt19937_64 rng(1);
  for (int i = 0; i < 2000; ++i) ASSERT_NE(choose_move(result, 1.0f, rng), parse_move("b6", board_7x7()));
  result.proven_plies_after = {std::nullopt, std::nullopt, 5};  // f2 wins in five plies
  result.winning_move = parse_move("f2", board_7x7());
  result.proven_plies = 5;
  for (int i = 0; i < 200; ++i) ASSERT_EQ(choose_move(result, 1.0f, rng), parse_move("f2", board_7x7()));
}

TEST(ChooseMove, TinyTemperaturesPickTheMostVisitedWithoutOverflow) {
  SearchResult result;
  result.moves = {parse_move("a6", board_7x7()), parse_move("b6", board_7x7()), parse_move("f2", board_7x7())};
  result.visits = result.policy_target = {50, 100, 1};
  result.total_visits = 152;
  std::mt19937_64 rng(1);
  for (const float temperature : {0.005f, 1e-6f, 1e-30f})
    for (int i = 0; i < 200; ++i) ASSERT_EQ(choose_move(result, temperature, rng), parse_move("b6", board_7x7())) << temperature;
}

TEST(ChooseMove, NoVisitsAndBadTemperatures) {
  SearchResult result;
  result.moves = {parse_move("a6", board_7x7()), parse_move("b6", board_7x7())};
  result.visits = result.policy_target = {0, 0};
  result.total_visits = 1;  // the root alone, as a search stopped at once leaves it
  std::mt19937_64 rng(1);
  EXPECT_EQ(choose_move(result, 1.0f, rng), parse_move("a6", board_7x7()));
  EXPECT_THROW(choose_move(three_moves(), -1.0f, rng), std::invalid_argument);
  EXPECT_THROW(choose_move(three_moves(), std::nanf(""), rng), std::invalid_argument);
  EXPECT_THROW(choose_move(three_moves(), INFINITY, rng), std::invalid_argument);
}

// Fails every call from the n-th on.
class FailingEvaluator final : public Evaluator {
 public:
  explicit FailingEvaluator(int fail_from) : fail_from_(fail_from) {}
  void evaluate(std::span<const EvalRequest> batch) override {
    if (++calls_ >= fail_from_) throw std::runtime_error("device lost");
    inner_.evaluate(batch);
  }

 private:
  int fail_from_;
  int calls_ = 0;
  UniformEvaluator inner_;
};

TEST(Search, StaysUsableAfterTheEvaluatorFails) {
  SearchParams params = with_visits(300);
  params.leaves_per_round = 8;
  Search search(params, 1);
  FailingEvaluator failing(3);
  EXPECT_THROW(run_search(search, failing), std::runtime_error);
  EXPECT_THROW(run_search(search, failing), std::runtime_error);  // again, with leaves pending before
  UniformEvaluator working;
  expect_consistent(run_search(search, working), 300);
  // And across moves, with the subtree kept.
  search.advance(parse_move("f2", board_7x7()));
  search.set_visits(search.root_visits() + 100);
  EXPECT_THROW(run_search(search, failing), std::runtime_error);
  const int kept = search.root_visits();
  expect_consistent(run_search(search, working), kept + 100);
}

TEST(Search, AFullSearchAddsItsVisitsOnTopOfTheReusedTree) {
  UniformEvaluator evaluator;
  Search search(with_visits(400), 1);
  const Move best = run_search(search, evaluator).best_move();
  search.advance(best);
  const int reused = search.root_visits();
  ASSERT_GT(reused, 10);
  search.set_visits(reused + 64);
  search.set_dirichlet_weight(0.25f);
  EXPECT_EQ(run_search(search, evaluator).total_visits, reused + 64);
}

// Records every position it is asked about.
class RecordingEvaluator final : public Evaluator {
 public:
  std::vector<std::vector<std::uint64_t>> batches;
  void evaluate(std::span<const EvalRequest> batch) override {
    batches.emplace_back();
    for (const EvalRequest& r : batch) batches.back().push_back(r.position->hash());
    inner_.evaluate(batch);
  }

 private:
  UniformEvaluator inner_;
};

TEST(Search, VirtualLossSpreadsABatchAndCollisionsEndIt) {
  SearchParams params = with_visits(100);
  params.leaves_per_round = 8;
  Search search(params, 1);
  RecordingEvaluator evaluator;
  run_search(search, evaluator);
  // The first round finds the root pending after one selection: a collision ends the round.
  ASSERT_GE(evaluator.batches.size(), 2U);
  EXPECT_EQ(evaluator.batches[0].size(), 1U);
  // Then virtual losses send the round's 8 selections to 8 different leaves.
  const auto& second = evaluator.batches[1];
  EXPECT_EQ(second.size(), 8U);
  EXPECT_EQ(std::set<std::uint64_t>(second.begin(), second.end()).size(), second.size());
}

TEST(Search, TheHalfmoveRuleEndsGamesInsideTheTree) {
  // x on a1 walled in by gaps: only jumps, each taking the clock from 99 to 100, a draw.
  const Position pos = Position::from_fen("6o/7/7/7/7/--5/x-5 x 99 60");
  ScriptedEvaluator evaluator;
  evaluator.value_of = [](const Position&) { return 0.8f; };  // the evaluator would call it good for the mover
  Search search(with_visits(200), 1);
  search.set_root(pos);
  const SearchResult result = run_search(search, evaluator);
  EXPECT_EQ(evaluator.requests, 1);  // the root only: every child is a finished game
  EXPECT_FLOAT_EQ(result.value, (0.8f + 0.0f * 199) / 200);  // the root's own evaluation, then draws
  SearchParams no_rule = with_visits(200);
  no_rule.rules.halfmove_limit = 0;
  Search unruled(no_rule, 1);
  unruled.set_root(pos);
  ScriptedEvaluator counting;
  run_search(unruled, counting);
  EXPECT_GT(counting.requests, 1);
}

TEST(Search, AFinishedRootIsAnErrorWithAMessageNotAReadPastTheMoves) {
  // Halfmove 60: not over under the default rules, over under a limit of 50 (a model trained so).
  const Position pos = Position::from_fen("x5o/7/7/7/7/7/o5x x 60 40");
  SearchParams params = with_visits(50);
  params.rules.halfmove_limit = 50;
  Search search(params, 1);
  search.set_root(pos);
  UniformEvaluator evaluator;
  const SearchResult result = run_search(search, evaluator);
  EXPECT_TRUE(result.moves.empty());
  try {
    result.best_move();
    ADD_FAILURE() << "a move was chosen in a finished game";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the game is over at the search's root"), std::string::npos) << e.what();
  }
  std::mt19937_64 rng(1);
  EXPECT_THROW(choose_move(result, 1.0f, rng), std::runtime_error);
}

}  // namespace
}  // namespace ataxx
