#include "selfplay/baseline_players.h"

#include <memory>
#include <stdexcept>

#include "mcts/simple_evaluators.h"
#include "nn/inference_server.h"
#include "selfplay/alphabeta.h"
#include "selfplay/mcts_player.h"
#include "selfplay/uai_player.h"

namespace ataxx {
Move RandomPlayer::choose_move(const Game& game) {
  const MoveList moves = legal_moves(game);
  return moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng_)];
}

Move GreedyPlayer::choose_move(const Game& game) {
  const MoveList moves = legal_moves(game);
  int best_gain = -1;
  int ties = 0;
  Move best;
  for (const Move move : moves) {
    const int gain = move_gain(game.position(), move);
    if (gain > best_gain) {
      best_gain = gain;
      best = move;
      ties = 1;
    } else if (gain == best_gain && std::uniform_int_distribution<int>(0, ties++)(rng_) == 0) {
      best = move;  // reservoir sampling: each tied move is kept with equal probability
    }
  }
  return best;
}

void register_baseline_players(std::map<std::string, PlayerFactory>& factories) {
  factories["random"] = [](PlayerSpec&) { return std::make_unique<RandomPlayer>(); };
  factories["greedy"] = [](PlayerSpec&) { return std::make_unique<GreedyPlayer>(); };
  factories["alphabeta"] = [](PlayerSpec& spec) {
    AlphaBetaPlayer::Limits limits;
    limits.time_ms = spec.get_int("time", 0, 0, 3'600'000);
    limits.depth = spec.get_int("depth", limits.time_ms > 0 ? 64 : 3, 1, 64);
    return std::make_unique<AlphaBetaPlayer>(limits);
  };
  factories["mcts"] = [](PlayerSpec& spec) {
    SearchParams params = read_search_params(spec);
    const std::string eval = spec.get_string("eval", "material");
    std::shared_ptr<Evaluator> evaluator;
    if (eval == "material") evaluator = std::make_shared<MaterialEvaluator>();
    else if (eval == "uniform") evaluator = std::make_shared<UniformEvaluator>();
    else throw std::invalid_argument("player '" + spec.text() + "': eval must be material or uniform");
    return std::make_unique<MctsPlayer>(params, std::move(evaluator));
  };
  factories["nn"] = [](PlayerSpec& spec) {
    const std::string model = spec.get_string("model", "");
    if (model.empty()) throw std::invalid_argument("player '" + spec.text() + "': nn needs model=FILE");
    SearchParams params = read_search_params(spec, 200);
    InferenceOptions options;
    options.device = spec.get_string("device", "cpu");
    options.max_batch = spec.get_int("max_batch", 256, 1, 65536);
    options.cache_entries = spec.get_int("cache", 0, 0, 1 << 26);
    options.threads = spec.get_int("threads", 1, 1, 64);
    options.deadline_us = 0;  // a single game's search is the only client
    auto server = std::make_shared<InferenceServer>(model, options);
    params.rules = server->info().rules;
    return std::make_unique<MctsPlayer>(params, std::move(server));
  };
  factories["uai"] = [](PlayerSpec& spec) { return make_uai_player(spec); };
}

}  // namespace ataxx
