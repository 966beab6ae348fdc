#include "selfplay/mcts_player.h"

namespace ataxx {

MctsPlayer::MctsPlayer(const SearchParams& params, std::shared_ptr<Evaluator> evaluator)
    : evaluator_(std::move(evaluator)), search_(params, 0) {}

void MctsPlayer::new_game(std::uint64_t seed) {
  search_ = Search(search_.params(), seed);
  moves_followed_ = 0;
}

void MctsPlayer::follow(const Game& game) {
  const auto& moves = game.moves();
  const bool continues = moves_followed_ > 0 && moves_followed_ <= moves.size();
  if (continues) {
    for (std::size_t i = moves_followed_; i < moves.size(); ++i) search_.advance(moves[i]);
  }
  if (!continues || !(search_.root_position() == game.position())) search_.set_root(game.position());
}

Move MctsPlayer::choose_move(const Game& game) {
  follow(game);
  last_result_ = run_search(search_, *evaluator_);
  const Move move = last_result_.best_move();
  search_.advance(move);
  moves_followed_ = game.moves().size() + 1;
  return move;
}

SearchParams read_search_params(PlayerSpec& spec, int default_visits) {
  SearchParams params;
  params.visits = spec.get_int("visits", default_visits, 1, 100'000'000);
  params.time_limit_s = spec.get_int("time", 0, 0, 3'600'000) / 1000.0;
  params.c_puct = static_cast<float>(spec.get_double("cpuct", params.c_puct, 0.0, 100.0));
  params.fpu_reduction = static_cast<float>(spec.get_double("fpu", params.fpu_reduction, -10.0, 10.0));
  params.leaves_per_round = spec.get_int("batch", params.leaves_per_round, 1, 4096);
  params.reuse_tree = spec.get_int("reuse", 1, 0, 1) == 1;
  return params;
}

}  // namespace ataxx
