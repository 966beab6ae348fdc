#include "players/schataxx_players.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>

#include "mcts/simple_evaluators.h"
#include "players/mcts_player.h"
#include "players/network_player.h"

namespace ataxx {
namespace schataxx {
namespace {

// Picks uniformly among the moves whose score is the largest (reservoir sampling).
template <typename Score>
Move best_of(const MoveList& moves, Score score, std::mt19937_64& rng) {
  Move best = moves[0];
  int best_score = 0, ties = 0;
  for (const Move move : moves) {
    const int value = score(move);
    if (ties == 0 || value > best_score) {
      best = move;
      best_score = value;
      ties = 1;
    } else if (value == best_score && std::uniform_int_distribution<int>(0, ties++)(rng) == 0) {
      best = move;
    }
  }
  return best;
}

class RandomSchataxxPlayer final : public SchataxxPlayer {
 public:
  void new_game(std::uint64_t seed) override { rng_.seed(seed); }
  Move choose_move(const Game& game) override {
    const MoveList moves = moves_to_search<SchataxxGame>(game, limits_);
    return moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng_)];
  }

 private:
  std::mt19937_64 rng_;
};

class GreedySchataxxPlayer final : public SchataxxPlayer {
 public:
  void new_game(std::uint64_t seed) override { rng_.seed(seed); }
  Move choose_move(const Game& game) override {
    const Position& pos = game.position();
    return best_of(moves_to_search<SchataxxGame>(game, limits_), [&](Move move) {
      Position child = pos;
      child.make_move(move);
      return child.area(pos.side_to_move());
    }, rng_);
  }

 private:
  std::mt19937_64 rng_;
};

// Plain negamax with alpha-beta to a fixed depth; a finished game scores by its result, sooner
// wins first. Ties at the root are broken at random.
class AlphaBetaSchataxxPlayer final : public SchataxxPlayer {
 public:
  explicit AlphaBetaSchataxxPlayer(int depth) : depth_(depth) {}
  void new_game(std::uint64_t seed) override { rng_.seed(seed); }
  Move choose_move(const Game& game) override {
    const Position& pos = game.position();
    const auto start = std::chrono::steady_clock::now();
    rules_ = game.rules();
    nodes_ = 0;
    int best_score = -kWin;
    const Move move = best_of(moves_to_search<SchataxxGame>(game, limits_), [&](Move move) {
      Position child = pos;
      child.make_move(move);
      const int score = -negamax(child, depth_ - 1, -kWin, kWin, 1);
      best_score = std::max(best_score, score);
      return score;
    }, rng_);
    report_.depth = depth_;
    report_.nodes = nodes_;
    report_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report_.score_cp = best_score * kCentipawnsAPoint;
    report_.pv = {move};
    return move;
  }
  MoveReport last_report() const override { return report_; }

 private:
  static constexpr int kWin = 1'000'000;
  static constexpr int kCentipawnsAPoint = 10;  // a square of area, ten points, a hundred centipawns

  int negamax(const Position& pos, int depth, int alpha, int beta, int ply) {
    ++nodes_;
    const Outcome outcome = pos.outcome(rules_);
    if (outcome.is_over()) {
      const int result = result_for(pos.side_to_move(), outcome.result);
      return result * (kWin - ply);
    }
    if (depth == 0) return schataxx_evaluation(pos);
    MoveList moves;
    pos.generate_moves(moves);
    for (const Move move : moves) {
      Position child = pos;
      child.make_move(move);
      alpha = std::max(alpha, -negamax(child, depth - 1, -beta, -alpha, ply + 1));
      if (alpha >= beta) break;
    }
    return alpha;
  }

  int depth_;
  Rules rules_;
  std::mt19937_64 rng_;
  std::uint64_t nodes_ = 0;
  MoveReport report_;
};

// Uniform priors; the value grows with the side to move's lead in area (the `mcts` baseline).
class AreaEvaluator final : public BasicEvaluator<SchataxxGame> {
 public:
  void evaluate(std::span<const BasicEvalRequest<SchataxxGame>> batch) override {
    for (const auto& request : batch) {
      std::fill(request.priors.begin(), request.priors.end(), 1.0f / request.moves.size());
      const Position& pos = *request.position;
      const float lead = std::tanh(static_cast<float>(pos.area(pos.side_to_move()) - pos.area(~pos.side_to_move())) / 8);
      *request.value = Wdl{.win = std::max(lead, 0.0f), .draw = 1 - std::abs(lead), .loss = std::max(-lead, 0.0f)};
    }
  }
};

}  // namespace
}  // namespace schataxx

int schataxx_evaluation(const schataxx::Position& pos) {
  const Color us = pos.side_to_move();
  return 10 * (pos.area(us) - pos.area(~us)) + popcount(pos.men(us)) - popcount(pos.men(~us));
}

void register_builtin_players(std::map<std::string, BasicPlayerFactory<SchataxxGame>>& factories) {
  factories["random"] = [](PlayerSpec&) { return std::make_unique<schataxx::RandomSchataxxPlayer>(); };
  factories["greedy"] = [](PlayerSpec&) { return std::make_unique<schataxx::GreedySchataxxPlayer>(); };
  factories["alphabeta"] = [](PlayerSpec& spec) {
    return std::make_unique<schataxx::AlphaBetaSchataxxPlayer>(spec.get_int("depth", 2, 1, 6));
  };
  factories["mcts"] = [](PlayerSpec& spec) {
    const BasicSearchParams<SchataxxGame> params = read_search_params<SchataxxGame>(spec);
    const std::string eval = spec.get_string("eval", "area");
    std::shared_ptr<BasicEvaluator<SchataxxGame>> evaluator;
    if (eval == "area")
      evaluator = std::make_shared<schataxx::AreaEvaluator>();
    else if (eval == "uniform") evaluator = std::make_shared<BasicUniformEvaluator<SchataxxGame>>();
    else throw std::invalid_argument("player '" + spec.text() + "': eval must be area or uniform");
    return std::make_unique<BasicMctsPlayer<SchataxxGame>>(params, std::move(evaluator));
  };
  factories["nn"] = [](PlayerSpec& spec) {
    return make_network_player(read_network_player_options<SchataxxGame>(spec));
  };
}

}  // namespace ataxx
