// The UAI protocol, as the Ataxx tool chain speaks it, over any player: a model's MCTS, or a
// baseline when no model is set. Malformed input gets an `info string error` and changes nothing.
// Every game of games/registry.h: the game comes from the FEN (the first game that claims it) or
// from the UCI_Variant option, as Fairy-Stockfish's GUIs send it (every game's and variant's
// name); the clocks follow each game's PGN colours (wtime is White's).
//
// Two threads: the caller's feeds input lines to handle(), which never waits for a search, and
// the engine's own thread runs the commands in order (a `go` runs its search there). So `stop`
// and `quit` always stop a search at once, `ponderhit` turns a `go ponder`'s search into one within
// the go line's limits from then on (the tree kept, as lc0 does), and `isready` is answered at once
// mid-search, as UAI asks, else after the commands before it, ahead of a queued search and the
// commands after that.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <variant>

#include "games/registry.h"
#include "players/level_player.h"
#include "players/net_shelf.h"
#include "players/player.h"
#include "uai/search_info.h"

namespace ataxx {

class UaiEngine {
 public:
  // allow_external_engines: whether `setoption name Player` may name an external engine
  // (`uai:cmd=...`, which starts a program); set_option may always.
  explicit UaiEngine(std::ostream& out, bool allow_external_engines = false);
  ~UaiEngine();  // stops any search; queued commands are dropped
  UaiEngine(const UaiEngine&) = delete;
  UaiEngine& operator=(const UaiEngine&) = delete;

  // Takes one input line; false once the engine should exit (`quit`: the commands before it
  // still run, in order, any search stopped at once; finish() waits for them).
  bool handle(std::string_view line);
  // The input has ended: an infinite search is stopped, everything else queued runs to its end.
  void finish();
  // Waits until every command received so far has run, searches included.
  void wait_until_idle();
  // Sets an option now (from the command line, before any input). Throws what the option's
  // checks throw: an unknown option, a bad value, a model file that cannot be loaded.
  void set_option(const std::string& name, const std::string& value);
  // The nets that play while the Model option is unset: for each position, the first that plays
  // its game and board (the shipped nets; NetShelf).
  void use_nets(NetShelf nets);

 private:
  struct Options {
    std::string variant{Games::First::kName};  // UCI_Variant
    std::string model;
    std::string player = "alphabeta";
    int visits = 800;
    int threads = 1;
    int batch_size = 64;
    std::string device = "cpu";
    int cache_size = 0;
    int hash_mb = 1024;  // the search tree's size bound, MiB (UCI's Hash): a search stops there
    int move_overhead_ms = 50;  // kept in hand on each timed move
    InfoDisplay display;
    // Search parameters of network players; unset ("auto"): the network player's default for the game.
    std::optional<float> policy_temperature;
    std::optional<float> c_puct;
    std::optional<float> fpu_reduction;
    bool transpositions = false;  // the search's SearchParams::transpositions
    bool limit_strength = false;  // UCI_LimitStrength: the level of UCI_Elo (players/level_player.h)
    int elo = kLevelRatings.front().elo;
  };
  // The game being played and its player, made at the first `go` after the options or the game changed.
  template <typename G>
  struct Session {
    using GameType = G;
    typename G::Game game;
    std::unique_ptr<BasicPlayer<G>> player;
    std::string model;  // the play file the player searches with; "": the Player option's spec
  };
  struct Command {
    std::string line;
    int go_number = 0;  // for `go`: its place among the searches asked for, from 1
  };

  void run_commands();  // the engine thread
  void execute(const Command& command);
  void say(const std::string& line);
  void handle_position(std::string_view args);
  template <typename G>
  void go(Session<G>& session, std::string_view args, int go_number);
  // A `go ponder`'s first part: searches until ponderhit, stop or quit.
  template <typename G>
  void ponder(BasicPlayer<G>& player, const typename G::Game& game, MoveLimits limits);
  void handle_setoption(std::string_view args);
  void apply_option(const std::string& name, const std::string& value);
  // Sets a display option (the player and its tree kept); false for any other option.
  bool apply_display_option(const std::string& key, const std::string& value);
  // options with another engine option set (key: its name in lower case); throws
  // std::invalid_argument for a bad one.
  static Options with_option(Options options, const std::string& key, const std::string& name,
                             const std::string& value);
  // The player made again for the options (a bad model or spec throws now, not at the next go).
  void remake_player();
  void new_game();  // the variant's start
  std::string variant_in_play() const;  // the game's (Ataxx's is "ataxx" on every board)
  template <typename G>
  // Keeps the player of the same game, and its tree where the game continues the one it searched.
  void set_game(typename G::Game game);
  // The session's player made (or made again) for the model that plays its position, where it has none
  // or another model's.
  template <typename G>
  void ready_player(Session<G>& session);
  // A model's player, or the Player option's for "".
  template <typename G>
  std::unique_ptr<BasicPlayer<G>> make_engine_player(const std::string& model) const;
  // The play file that plays pos: the Model option's where it plays it, else (with the option
  // unset) the first of nets_ that does; "" for none: the Player option's spec plays.
  template <typename P>
  std::string model_for(const P& pos) const;
  void stop_searches();  // every search asked for so far ends at once
  void end_pondering();  // ponderhit: every `go ponder` asked for so far searches within its limits
  void wait_for_stop();  // until `stop` or `quit` (or the end of input) ends the running go

  std::ostream& out_;
  std::mutex out_mutex_;  // guards out_
  const bool allow_external_engines_;

  // Touched only by the engine thread (and by set_option while it is idle).
  Options options_;
  std::optional<ModelInfo> model_info_;  // the Model option's
  NetShelf nets_;
  Games::Variant<Session> session_;
  std::string refused_position_;  // why the last `position` was refused, until a game is set again

  std::mutex mutex_;  // guards everything below
  std::condition_variable work_ready_;
  std::condition_variable idle_;
  std::deque<Command> queue_;
  bool busy_ = false;         // the engine thread is running a command
  bool searching_ = false;    // ... and it is a go
  bool closing_ = false;      // no more commands: the engine thread ends once the queue is empty
  bool input_ended_ = false;  // finish() was called: infinite searches stop at once
  bool infinite_running_ = false;
  int gos_received_ = 0;
  int stopped_through_ = 0;        // every go numbered up to this one is to stop at once
  int ponderhits_through_ = 0;     // every go numbered up to this one had its ponderhit
  std::atomic<bool> stop_{false};  // the running search's stop flag
  std::atomic<bool> ponder_stop_{false};  // the running ponder's: ponderhit, stop or quit
  std::condition_variable stop_flag_set_;  // stop_ or ponder_stop_ was set

  std::thread thread_;  // last: starts after everything above exists
};

}  // namespace ataxx
