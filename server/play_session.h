// One browser tab's board: the game, the moves a human makes, the engine's searches (on a thread
// of the session, reporting as they go). JSON messages, one per WebSocket message:
//
//   in   {"type":"new","game":"ataxx","board":"hexagon"}   a board's start ("fen" instead: any position)
//        {"type":"new","game":G,"variant":V}                a game without boards: its variant's start
//        {"type":"new","fen":F,"variant":V}                 the game whose FEN F is (V where it is one of its)
//        {"type":"move","move":"b6"}                        a legal move in the game's notation
//        {"type":"undo","plies":2}                          takes back moves (1 when not given)
//        {"type":"line","moves":["g2","a1b3"],"id":7}       the game's moves from its start, instead
//                               of those played (the analysis board steps through its tree so); the
//                               state after, or the error refusing it, carries the id as "line_id"
//        {"type":"go","visits":800} or {"type":"go","movetime":1000}: the engine plays the side to move;
//                               with "version" (a state's), dropped unless the game is still in that state;
//                               with "elo" (one of the games message's levels), at that level, its move
//                               no sooner than a second after (a net's only: alphabeta plays as it is)
//        {"type":"ponder","version":3}  a net searches the position shown (the player's turn) until
//                               the game changes, a go, a stop or {"type":"ponder","on":false}; its
//                               next search starts from that tree ("visits": at most so many)
//        {"type":"stop"}                                    the search answers now; pondering stops
//        {"type":"analyze","on":true}   the position shown is analysed, again after each change, until
//                               {"type":"analyze","on":false} (the analysis engine's, analysis/)
//        {"type":"review","visits":200,"id":"7"}  every turn of the game analysed, for a review of its
//                               moves (answers' id "review-7"; without an id, "review-VERSION")
//   out  {"type":"games",...}   first: each game's name, title, whether it has boards, its variants;
//                               the levels ({"elo", "skill"}: players/level_player.h)
//        {"type":"state",...}   after every change: game, variant, board, men, legal moves, last move,
//                               outcome, and "version", bumped by each change
//        {"type":"think",...}   while the engine searches ("final": true with its move; "ponder": true
//                               when it searched on the player's time; "version": the state searched)
//        {"type":"analysis",...}  the analysis engine's answers: "id" "shown-VERSION" for the position
//                               shown in that state, "review-VERSION" for each turn of a review
//        {"type":"error","message":...}  for input refused; nothing changed ("ply": the index of
//                               the move refused in a "new" or "line" message's "moves")
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

#include "games/registry.h"
#include "players/player.h"
#include "analysis/analysis_engine.h"
#include "players/net_shelf.h"
#include "server/web_server.h"

namespace ataxx::server {

// As JSON text, whatever its strings hold (input quoted, cut inside a UTF-8 character; a byte of a
// run's log): bytes that are not UTF-8 go as U+FFFD. What the view's server sends.
std::string text_of(const nlohmann::json& message);

struct PlayOptions {
  const NetShelf* nets = nullptr;  // the nets that play; none: alpha-beta
  int threads = 1;  // each search's
  int max_visits = 1'000'000;
  int max_movetime_ms = 60'000;
};

class PlaySession final : public SocketHandler {
 public:
  PlaySession(PlayOptions options, SendText send);  // sends the 7x7 start
  ~PlaySession() override;                          // stops a search and waits for it
  void on_message(std::string_view text) override;

 private:
  template <typename G>
  struct Table {
    using GameType = G;
    typename G::Game game;
    std::shared_ptr<BasicPlayer<G>> engine;  // made at the first go or ponder, shared with a search that runs
    std::optional<int> engine_skill;         // its level (players/level_player.h); none: full strength
    std::string engine_model;                // the net that plays the board, "" for alpha-beta
    std::string engine_name;
    std::vector<typename G::Position> positions;  // before each move, for the last move's turned men
  };
  using AnyTable = Games::Variant<Table>;

  void handle(const std::string& type, const nlohmann::json& message);  // under mutex_
  void start_new(const nlohmann::json& message);
  template <typename G>
  Table<G> make_table(typename G::Game game) const;
  template <typename G>
  static nlohmann::json history_of(const Table<G>& table);  // the moves played, in the game's notation
  template <typename G>
  void play(Table<G>& table, const typename G::Move& move);  // and the version bumped, pondering stopped
  template <typename G>
  void play_human(Table<G>& table, const std::string& text);  // a legal move, else an error
  template <typename G>
  static typename G::Move legal_move(const Table<G>& table, const std::string& text);  // else an error
  template <typename G>
  static void advance(Table<G>& table, const typename G::Move& move);  // the move played, nothing else told
  // The moves advanced through; a move refused throws RefusedMove, naming it and `refused_in`.
  template <typename G>
  static void play_line(Table<G>& table, const std::vector<std::string>& moves, const char* refused_in);
  template <typename G>
  void undo(Table<G>& table, int plies);
  // The moves from the start instead of those played; `id` (none: null) goes with the state after.
  template <typename G>
  void set_line(Table<G>& table, const std::vector<std::string>& moves, nlohmann::json id);
  template <typename G>
  void go(Table<G>& table, const nlohmann::json& message);
  template <typename G>
  void ponder(Table<G>& table, const nlohmann::json& message);
  void queue(std::function<void()> job);  // under mutex_: to the search thread, started at the first
  void stop_pondering();                  // under mutex_
  // The engine at that skill (none: full strength), made again where the table's is another.
  template <typename G>
  void ready_engine(Table<G>& table, std::optional<int> skill) const;
  void send_state();  // under mutex_; and analyse_shown()
  void analyse_shown();  // under mutex_: with analysis on, the position shown, unless it is already
  void review(const std::string& id, int visits);  // under mutex_: every turn of the game, `visits` each
  nlohmann::json game_query(const std::string& id) const;  // the game as an analysis query
  void analyse(const std::string& line);  // to the analysis engine, made at the first line
  void stop_query(std::string& id);  // terminates the query of that id (none: "") and forgets it
  void send_error(const std::string& message);
  void abandon_search();  // under mutex_: a running search stops and its move is dropped
  void run_jobs();        // the search thread

  PlayOptions options_;
  SendText send_;

  std::mutex mutex_;  // guards everything below
  AnyTable table_;
  int version_ = 0;        // bumped by every change to the game
  int games_started_ = 1;  // the number of the game in state messages, from 1
  bool thinking_ = false;  // a search was asked for and has not answered
  std::deque<std::function<void()>> jobs_;
  std::condition_variable jobs_ready_;
  bool closing_ = false;
  std::shared_ptr<std::atomic<bool>> current_stop_;  // the stop flag of the search asked for last
  std::shared_ptr<std::atomic<bool>> ponder_stop_;   // the pondering's, while it goes on
  int pondered_version_ = -1;                        // the version it ponders on
  nlohmann::json line_answered_;  // the id of the line the next state answers (null: none)
  bool analysing_ = false;     // the position shown is analysed while it is shown
  int analysed_version_ = -1;  // the version analysed last
  std::unique_ptr<analysis::Engine> analysis_;  // made at the first analyze or review
  std::string shown_query_;   // the id of the analysis of the position shown: "shown-VERSION"
  std::string review_query_;  // of the last review: "review-ID"

  std::thread thread_;  // last; started by the first go or ponder, so that an idle board holds no thread nor engine
};

}  // namespace ataxx::server
