// Anything that picks moves: baselines, MCTS with any evaluator, later networks and external
// engines. Made from a spec string: "random", "greedy", "alphabeta:depth=3", "mcts:visits=800".
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "mcts/evaluator.h"
#include "games/registry.h"

namespace ataxx {

// A timed game's clocks as the side to move sees them (UAI's wtime/btime, winc/binc, movestogo).
struct GameClock {
  int own_ms = -1;  // -1: the game is not timed
  int own_increment_ms = 0;
  int opponent_ms = -1;
  int opponent_increment_ms = 0;
  int moves_to_go = 0;  // moves until the next time control; 0 for sudden death
  int move_overhead_ms = 50;  // kept in hand on each move for what the search does not see (answering)
  bool timed() const { return own_ms >= 0; }
};

// UCI's `score mate N` of a result proven `plies` plies before the game's end, negative where the
// mover loses: the mover's moves to that end (its last included), negative for a loss.
constexpr int mate_in_moves(int plies) { return plies > 0 ? (plies + 1) / 2 : -((1 - plies) / 2); }

// Per-move limits from outside (the UAI `go` command, a match's clock); zero means the player's
// own setting. With none given, a player searches within its own (finite) budget. A clock
// without movetime leaves the player to plan its time (players/time_manager.h).
struct MoveLimits {
  int movetime_ms = 0;
  int nodes = 0;
  int depth = 0;
  bool infinite = false;                    // search until stopped
  // UCI's `go mate N`: a win in at most N moves is sought. Alpha-beta searches at most 2N - 1 plies
  // and stops at the first win it proves; a tree search with its solver searches, without its own
  // visit budget, until it proves the position won (in however many moves) or lost, or meets
  // another limit; without the solver it keeps to its other limits.
  int mate = 0;
  GameClock clock;
  const std::atomic<bool>* stop = nullptr;  // set from another thread: answer now
  int progress_interval_ms = 500;           // between interim reports (on_progress)
  // UAI's searchmoves, as move texts: only these of the legal moves may be chosen; empty: every one.
  std::vector<std::string> search_moves;
  // UCI's MultiPV: how many root moves to score, best first, as the report's candidates. Alpha-beta
  // searches a line for each; a tree reports every root move it visited whatever this says.
  int multi_pv = 1;
};

// One candidate move of a search, as GUIs show it.
template <typename G>
struct BasicCandidateMove {
  typename G::Move move;
  int visits = 0;
  float prior = 0;                      // the network's policy
  float exploration = 0;                // the search's PUCT bonus for it at the end (lc0's U)
  float value = 0;                      // the search's mean, in [-1, 1] from the mover's view
  std::optional<Wdl> network_value;     // the network's value after the move, mover's view
  std::optional<Wdl> search_value;      // the search's, as BasicMoveReport::search_value
  int score_cp = 0;                     // of the search's expected result, as BasicMoveReport::score_cp
  std::optional<int> mate;              // as BasicMoveReport::mate: the mover's, playing this move
  int depth = 0;                        // alpha-beta's iteration that scored it; 0 for a tree's move
  std::vector<typename G::Move> pv;     // the move and the most visited line after it (alpha-beta: the best line)
  std::vector<int> pv_visits;           // a tree's: the visits of the node each move of pv leads to
  std::optional<float> lower_bound;     // a tree's value less its lcb standard errors (SearchResult::lower_bounds)
};

// What a player can say about its last move (UAI info lines, interactive play, the browser view).
template <typename G>
struct BasicMoveReport {
  int depth = 0;
  int seldepth = 0;  // a tree search's deepest leaf (UCI's seldepth); 0 where not known
  std::uint64_t nodes = 0;
  std::uint64_t reused_nodes = 0;  // of nodes, those a tree kept from an earlier search held at the start
  double seconds = 0;
  std::optional<int> hashfull;  // thousandths of the search tree's memory bound in use (UCI's hashfull)
  int score_cp = 0;  // from the mover's view
  // A proven result as UCI's `score mate N` (mate_in_moves): a win in N moves, negative a loss; a
  // tree search's solver's, alpha-beta's or an external engine's.
  std::optional<int> mate;
  std::vector<typename G::Move> pv;
  // Searching players only: the root's value and its moves, most visited first.
  float value = 0;
  std::optional<Wdl> network_value;
  std::optional<Wdl> search_value;  // the root's mean win/draw/loss and lead over the search's visits
  std::vector<BasicCandidateMove<G>> candidates;

  std::optional<double> engine_nps;  // an outside engine's own figure (its info line's nps), where it gave one

  // This search's own nodes a second, the reused ones left out (as lc0's nps); an outside engine's
  // figure where it gave one (its nodes may count reused ones: ours do, as lc0's).
  double nodes_per_second() const {
    if (engine_nps) return *engine_nps;
    return static_cast<double>(nodes - reused_nodes) / std::max(seconds, 1e-6);
  }
};

// A player of one game (games/registry.h).
template <typename G>
class BasicPlayer {
 public:
  using Game = typename G::Game;
  using Move = typename G::Move;
  using MoveReport = BasicMoveReport<G>;

  virtual ~BasicPlayer() = default;
  // Applies to the following choose_move and ponder calls.
  virtual void set_limits(const MoveLimits& limits) { limits_ = limits; }
  virtual MoveReport last_report() const { return {}; }
  // Called before each game; the seed makes a player's choices reproducible.
  virtual void new_game(std::uint64_t seed) = 0;
  // Throws std::invalid_argument where the player cannot play a game from `start` (a network not
  // trained on its board), before any game is played.
  virtual void check_plays(const typename G::Position& /*start*/) const {}
  // A legal move for the side to move in a game that is not over. May throw.
  virtual Move choose_move(const Game& game) = 0;
  // Thinks on the position in the opponent's time (UAI's `go ponder`) until the limits' stop flag
  // is set, choosing nothing; a choose_move of the same position then goes on from what it found.
  // Players that do not search return at once.
  virtual void ponder(const Game&) {}
  // Called with interim reports while a move is being chosen, where the player has them.
  void on_progress(std::function<void(const MoveReport&)> callback) { progress_ = std::move(callback); }

 protected:
  std::function<void(const MoveReport&)> progress_;
  MoveLimits limits_;
};

// Readies a player for games from these openings before the first of them, or throws why it
// cannot play them: shown every opening (a net checks its board), then started on a game (an
// engine is started and answers).
template <typename G>
void ready_to_play(BasicPlayer<G>& player, const std::vector<typename G::Position>& openings, std::uint64_t seed) {
  for (const typename G::Position& start : openings) player.check_plays(start);
  player.new_game(seed);
}

using MoveReport = BasicMoveReport<DefaultGame>;
using Player = BasicPlayer<DefaultGame>;

// "kind:key=value,key=value". Each option must be read exactly once by the player's factory;
// finish() rejects the ones nobody read, naming them.
class PlayerSpec {
 public:
  explicit PlayerSpec(std::string_view text);
  const std::string& kind() const { return kind_; }
  const std::string& text() const { return text_; }
  int get_int(const std::string& key, int fallback, int min, int max);
  double get_double(const std::string& key, double fallback, double min, double max);
  std::string get_string(const std::string& key, const std::string& fallback);
  // Whether the spec gives `key`, not read yet.
  bool has(const std::string& key) const { return options_.contains(key); }
  // Every option not read yet, consumed (for players that pass options on, like UAI engines).
  std::map<std::string, std::string> take_rest();
  void finish() const;

 private:
  std::optional<std::string> take(const std::string& key);  // the value, removed from the options

  std::string text_;
  std::string kind_;
  std::map<std::string, std::string> options_;
};

// The moves a player may choose from: the legal ones, or those of them that limits.search_moves
// names when it names any. Throws std::logic_error when there are none (the game is over by its
// position) and std::invalid_argument when search_moves names none of them.
template <typename G>
typename G::MoveList moves_to_search(const typename G::Game& game, const MoveLimits& limits = {});

// A factory for a player kind of a game: consumes the options it knows from the spec.
template <typename G>
using BasicPlayerFactory = std::function<std::unique_ptr<BasicPlayer<G>>(PlayerSpec&)>;
using PlayerFactory = BasicPlayerFactory<DefaultGame>;
// Adds a kind (tests add scripted players this way).
template <typename G = DefaultGame>
void register_player_kind(const std::string& kind, std::type_identity_t<BasicPlayerFactory<G>> factory);

// Throws std::invalid_argument for an unknown kind, unknown option or out-of-range value. Every
// game has the kinds of players/baseline_players.h.
template <typename G = DefaultGame>
std::unique_ptr<BasicPlayer<G>> make_player(std::string_view spec);

// Where a match gets its players, one for each of its threads: a spec, as users write them, or
// code (a run's networks, whose model paths never go through a spec, where a ',' or '=' in the
// path would change its meaning).
template <typename G>
struct BasicPlayerSource {
  std::string name;  // the spec itself, for a spec
  std::function<std::unique_ptr<BasicPlayer<G>>()> make;

  BasicPlayerSource() = default;
  BasicPlayerSource(std::string spec)  // NOLINT(google-explicit-constructor): a spec is a source
      : name(std::move(spec)), make([text = name] { return make_player<G>(text); }) {}
  BasicPlayerSource(const char* spec) : BasicPlayerSource(std::string(spec)) {}  // NOLINT(google-explicit-constructor)
  BasicPlayerSource(std::string name, std::function<std::unique_ptr<BasicPlayer<G>>()> make)
      : name(std::move(name)), make(std::move(make)) {}
};
using PlayerSource = BasicPlayerSource<DefaultGame>;

}  // namespace ataxx
