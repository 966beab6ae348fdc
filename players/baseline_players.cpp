#include "players/baseline_players.h"

#include <memory>
#include <stdexcept>

#include "mcts/simple_evaluators.h"
#include "players/alphabeta.h"
#include "players/mcts_player.h"
#include "players/network_player.h"
#include "players/uai_player.h"

namespace ataxx {

Move RandomPlayer::choose_move(const Game& game) {
  const MoveList moves = moves_to_search<AtaxxGame>(game, limits_);
  return moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng_)];
}

Move GreedyPlayer::choose_move(const Game& game) {
  const MoveList moves = moves_to_search<AtaxxGame>(game, limits_);
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

void register_builtin_players(std::map<std::string, PlayerFactory>& factories) {
  factories["random"] = [](PlayerSpec&) { return std::make_unique<RandomPlayer>(); };
  factories["greedy"] = [](PlayerSpec&) { return std::make_unique<GreedyPlayer>(); };
  factories["alphabeta"] = [](PlayerSpec& spec) {
    return std::make_unique<AlphaBetaPlayer>(read_alphabeta_limits(spec, 3));
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
  factories["nn"] = [](PlayerSpec& spec) { return make_network_player(read_network_player_options(spec)); };
  factories["uai"] = [](PlayerSpec& spec) { return make_uai_player<AtaxxGame>(spec); };
}

}  // namespace ataxx
