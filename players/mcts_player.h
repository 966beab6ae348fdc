// A player that searches with MCTS over any evaluator, on one thread or several, keeping its tree
// between moves.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "mcts/search.h"
#include "players/player.h"

namespace ataxx {

template <typename G>
class BasicMctsPlayer final : public BasicPlayer<G> {
 public:
  using Game = typename G::Game;
  using Position = typename G::Position;
  using Move = typename G::Move;
  using MoveReport = BasicMoveReport<G>;
  using SearchParams = BasicSearchParams<G>;
  using SearchResult = BasicSearchResult<G>;
  using Search = BasicSearch<G>;
  using Evaluator = BasicEvaluator<G>;

  // threads: threads that search the tree at once (mcts/search_threads.h).
  BasicMctsPlayer(const SearchParams& params, std::shared_ptr<Evaluator> evaluator, int threads = 1);
  void new_game(std::uint64_t seed) override;
  void check_plays(const Position& start) const override { evaluator_->check_evaluates(start); }
  Move choose_move(const Game& game) override;
  void ponder(const Game& game) override;
  MoveReport last_report() const override { return report_; }
  // The last search's figures, for display (UAI info lines, interactive play).
  const SearchResult& last_result() const { return last_result_; }
  Search& search() { return search_; }
  // Has each search take its c_puct from its root's position (a play default by board) instead of
  // the params'.
  void set_c_puct_of(std::function<float(const Position&)> c_puct_of) { c_puct_of_ = std::move(c_puct_of); }

 private:
  // Moves the tree's root to the game's position, reusing the subtree when the game continues
  // the one followed before.
  void follow(const Game& game);
  // Searches the game's position within `limits`: last_result_ and report_.
  void search(const Game& game, const MoveLimits& limits);
  // Where a search's figures count from: its start and the visits its tree held then.
  struct Counted {
    std::chrono::steady_clock::time_point start;
    int reused_visits = 0;
  };
  // A search's result as the player reports it, timed from `start`, with the visits its tree kept.
  MoveReport report_of(const SearchResult& result, std::chrono::steady_clock::time_point start,
                       int reused_visits) const;

  std::shared_ptr<Evaluator> evaluator_;
  Search search_;
  std::optional<Game> followed_;  // the game whose position the tree's root is at; none: a new game
  SearchResult last_result_;
  SearchParams base_params_;
  std::function<float(const Position&)> c_puct_of_;  // none: base_params_.c_puct
  int threads_;
  MoveReport report_;
  Counted last_counted_;                              // of the last search
  std::optional<std::pair<Game, Counted>> pondered_;  // a ponder's game and figures, until the next move
};

using MctsPlayer = BasicMctsPlayer<DefaultGame>;
#define ATAXX_DECLARE(G) extern template class BasicMctsPlayer<G>;
ATAXX_FOR_EACH_GAME(ATAXX_DECLARE)
#undef ATAXX_DECLARE

// The search parameters a player accepts: policy temperature (spec `ptemp`, UAI's
// PolicyTemperature), c_puct (`cpuct`, CPuct) and first-play reduction (`fpu`, FpuValue).
inline constexpr double kMinPolicyTemperature = 0.1;
inline constexpr double kMaxPolicyTemperature = 10.0;
inline constexpr double kMaxCPuct = 100.0;
inline constexpr double kMaxFpuReduction = 10.0;  // the smallest is its negative

// Reads the search options shared by every MCTS-based player spec:
// visits, time (ms), cpuct, fpu, ptemp (policy temperature), batch (leaves per round), reuse (0/1),
// solver (0/1), lcb (standard errors of the final move's bound), lead (the expected final piece
// lead's weight beside the expected result); `defaults` for those the spec does not give.
template <typename G = DefaultGame>
BasicSearchParams<G> read_search_params(PlayerSpec& spec, BasicSearchParams<G> defaults = {});

}  // namespace ataxx
