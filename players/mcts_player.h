// A player that searches with MCTS over any evaluator, on one thread or several, keeping its tree
// between moves.
#pragma once

#include <memory>

#include "mcts/search.h"
#include "players/player.h"

namespace ataxx {

template <typename G>
class BasicMctsPlayer final : public BasicPlayer<G> {
 public:
  using Game = typename G::Game;
  using Move = typename G::Move;
  using MoveReport = BasicMoveReport<G>;
  using SearchParams = BasicSearchParams<G>;
  using SearchResult = BasicSearchResult<G>;
  using Search = BasicSearch<G>;
  using Evaluator = BasicEvaluator<G>;

  // threads: threads that search the tree at once (mcts/search_threads.h).
  BasicMctsPlayer(const SearchParams& params, std::shared_ptr<Evaluator> evaluator, int threads = 1);
  void new_game(std::uint64_t seed) override;
  void set_limits(const MoveLimits& limits) override { limits_ = limits; }
  Move choose_move(const Game& game) override;
  MoveReport last_report() const override { return report_; }
  // The last search's figures, for display (UAI info lines, interactive play).
  const SearchResult& last_result() const { return last_result_; }
  Search& search() { return search_; }

 private:
  // Moves the tree's root to the game's position, reusing the subtree when it is a descendant.
  void follow(const Game& game);

  std::shared_ptr<Evaluator> evaluator_;
  Search search_;
  std::size_t moves_followed_ = 0;
  SearchResult last_result_;
  SearchParams base_params_;
  int threads_;
  MoveLimits limits_;
  MoveReport report_;
};

using MctsPlayer = BasicMctsPlayer<AtaxxGame>;
extern template class BasicMctsPlayer<AtaxxGame>;
extern template class BasicMctsPlayer<SchataxxGame>;

// The search parameters a player accepts: policy temperature (spec `ptemp`, UAI's
// PolicyTemperature), c_puct (`cpuct`, CPuct) and first-play reduction (`fpu`, FpuValue).
inline constexpr double kMinPolicyTemperature = 0.1;
inline constexpr double kMaxPolicyTemperature = 10.0;
inline constexpr double kMaxCPuct = 100.0;
inline constexpr double kMaxFpuReduction = 10.0;  // the smallest is its negative

// Reads the search options shared by every MCTS-based player spec:
// visits, time (ms), cpuct, fpu, ptemp (policy temperature), batch (leaves per round), reuse (0/1),
// solver (0/1); `defaults` for those the spec does not give.
template <typename G = AtaxxGame>
BasicSearchParams<G> read_search_params(PlayerSpec& spec, BasicSearchParams<G> defaults = {});

}  // namespace ataxx
