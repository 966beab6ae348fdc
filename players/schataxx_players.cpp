#include "players/schataxx_players.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>

#include "mcts/simple_evaluators.h"
#include "players/alphabeta.h"
#include "players/mcts_player.h"
#include "players/network_player.h"
#include "players/uai_player.h"

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

void register_builtin_players(std::map<std::string, BasicPlayerFactory<SchataxxGame>>& factories) {
  factories["random"] = [](PlayerSpec&) { return std::make_unique<schataxx::RandomSchataxxPlayer>(); };
  factories["greedy"] = [](PlayerSpec&) { return std::make_unique<schataxx::GreedySchataxxPlayer>(); };
  factories["alphabeta"] = [](PlayerSpec& spec) {
    return std::make_unique<BasicAlphaBetaPlayer<SchataxxGame>>(read_alphabeta_limits(spec, 2));
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
  factories["uai"] = [](PlayerSpec& spec) { return make_uai_player<SchataxxGame>(spec); };
}

}  // namespace ataxx
