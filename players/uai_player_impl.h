// The template definitions of players/uai_player.h: included by uai_player.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "players/uai_player.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

#include "players/engine_process.h"
#include "util/text.h"

namespace ataxx {
namespace {

// Reads what an info line says of the search into report: depth, nodes, nps, time and score (`cp N`, `mate N`,
// or a bare `N` as some Ataxx engines send, taken as centipawns). A line without a score (info
// string, currmove) or of a MultiPV line but the first changes nothing.
template <typename Report>
void read_info(const std::string& line, Report& report) {
  const std::vector<std::string> words = split_words(line);
  if (words.empty() || words[0] != "info") return;
  Report read = report;
  bool scored = false;
  const auto number_at = [&](std::size_t i) { return i < words.size() ? parse_integer(words[i]) : std::nullopt; };
  for (std::size_t i = 1; i < words.size() && words[i] != "pv" && words[i] != "string"; ++i) {
    if (words[i] == "depth" && number_at(i + 1)) {
      read.depth = static_cast<int>(*number_at(++i));
    } else if (words[i] == "multipv" && number_at(i + 1) != 1) {
      return;  // another line than the best's
    } else if (words[i] == "nodes" && number_at(i + 1)) {
      read.nodes = static_cast<std::uint64_t>(std::max(0LL, *number_at(++i)));
    } else if (words[i] == "nps" && number_at(i + 1)) {
      read.engine_nps = static_cast<double>(std::max(0LL, *number_at(++i)));
    } else if (words[i] == "time" && number_at(i + 1)) {
      read.seconds = static_cast<double>(std::max(0LL, *number_at(++i))) / 1000;
    } else if (words[i] == "score") {
      const std::string kind = i + 1 < words.size() ? words[i + 1] : "";
      const bool named = kind == "cp" || kind == "mate";  // else a bare number
      const std::optional<long long> value = number_at(named ? i + 2 : i + 1);
      if (!value) continue;
      i += named ? 2 : 1;
      read.mate = kind == "mate" ? std::optional(static_cast<int>(*value)) : std::nullopt;
      read.score_cp = read.mate ? 0 : static_cast<int>(std::clamp<long long>(*value, -1'000'000, 1'000'000));
      scored = true;
    }
  }
  if (scored) report = read;
}

template <typename G>
class UaiPlayer final : public BasicPlayer<G> {
 public:
  using Game = typename G::Game;
  using Move = typename G::Move;
  using MoveReport = BasicMoveReport<G>;

  UaiPlayer(std::string command, std::map<std::string, std::string> engine_options, std::string go, int timeout_ms,
            bool ponder)
      : command_(std::move(command)),
        engine_options_(std::move(engine_options)),
        go_(std::move(go)),
        timeout_ms_(timeout_ms),
        ponder_(ponder) {}

  void new_game(std::uint64_t) override {
    if (!engine_) start();
    try {
      abandon_pondering();
    } catch (...) {
      engine_.reset();
      throw;
    }
    engine_->send("uainewgame");
    engine_->send("isready");
    engine_->expect("readyok", timeout_ms_);
  }

  MoveReport last_report() const override { return report_; }

  Move choose_move(const Game& game) override {
    if (!engine_) start();
    report_ = {};
    const auto asked = std::chrono::steady_clock::now();
    try {
      if (pondered_ && pondered_->start() == game.start() && pondered_->moves() == game.moves() &&
          this->limits_.search_moves.empty()) {
        pondered_.reset();
        engine_->send("ponderhit");  // the move it pondered on was played: its search goes on, now on its clock
      } else {
        abandon_pondering();
        send_position(game);
        std::string go = go_line(this->limits_.clock, game);
        if (!this->limits_.search_moves.empty()) go += " searchmoves";
        for (const std::string& move : this->limits_.search_moves) go += " " + move;
        engine_->send(go);
      }
      const std::string line = engine_->expect(
          "bestmove", timeout_ms_ + std::max(0, this->limits_.clock.own_ms),
          [this](const std::string& info) { read_info(info, report_); }, this->limits_.stop);
      const std::vector<std::string> words = split_words(line);
      if (words.size() < 2) throw std::runtime_error("uai engine answered '" + line + "'");
      const Move move = G::parse_move_text(words[1], game.position());
      if (ponder_ && words.size() >= 4 && words[2] == "ponder") {
        const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - asked);
        try {
          start_pondering(game, move, words[3], static_cast<int>(spent.count()));
        } catch (const std::exception&) {  // the engine is gone: the move it chose still stands
          engine_.reset();
          pondered_.reset();
        }
      }
      return move;
    } catch (...) {
      engine_.reset();  // restarted for the next game
      pondered_.reset();
      throw;
    }
  }

 private:
  void send_position(const Game& game) {
    send_variant(G::pgn_variant(game.start()));
    std::string position = "position fen " + game.start().fen();
    if (!game.moves().empty()) {
      position += " moves";
      for (const Move m : game.moves()) position.append(" ").append(G::move_text(m, game.position()));
    }
    engine_->send(position);
  }

  std::string go_line(const GameClock& clock, const Game& game) const {
    return clock.timed() ? go_with_clock(clock, game.position().side_to_move()) : go_;
  }

  // After its move, the engine thinks on the position after the reply it expects (UAI's `go
  // ponder`), its clock as it will be then, until the next choose_move says whether that reply
  // came (`ponderhit`) or not (`stop`). A reply that is not legal, or a game over, starts nothing.
  void start_pondering(const Game& game, Move move, const std::string& reply_text, int spent_ms) {
    Game expected = game;
    expected.play(move);
    if (expected.outcome().is_over()) return;
    typename G::MoveList moves;
    expected.position().generate_moves(moves);
    Move reply;
    try {
      reply = G::parse_move_text(reply_text, expected.position());
    } catch (const std::invalid_argument&) {
      return;
    }
    if (std::find(moves.begin(), moves.end(), reply) == moves.end()) return;
    expected.play(reply);
    if (expected.outcome().is_over()) return;
    typename G::MoveList ours;
    expected.position().generate_moves(ours);
    if (ours.size() == 1 && ours[0].is_pass()) return;  // nothing to think about
    send_position(expected);
    GameClock clock = this->limits_.clock;  // its own after this move, the increment added
    if (clock.timed()) clock.own_ms = std::max(0, clock.own_ms - spent_ms) + clock.own_increment_ms;
    if (clock.moves_to_go > 1) --clock.moves_to_go;
    engine_->send("go ponder" + go_line(clock, expected).substr(2));
    pondered_ = std::move(expected);
  }

  // A pondering on a reply that did not come: stopped, its bestmove read and dropped.
  void abandon_pondering() {
    if (!pondered_) return;
    pondered_.reset();
    engine_->send("stop");
    engine_->expect("bestmove", timeout_ms_);
  }

  // UAI names a side's clock by its PGN colour (G::kPgnColours): x's is btime in Ataxx (x moves
  // first, like Black in chess); in a game whose first mover is White, White's is wtime.
  static std::string go_with_clock(const GameClock& clock, Color mover) {
    const bool first = mover == Color::kX;  // the side that moves first
    const int first_ms = first ? clock.own_ms : clock.opponent_ms, second_ms = first ? clock.opponent_ms : clock.own_ms;
    const int first_inc = first ? clock.own_increment_ms : clock.opponent_increment_ms;
    const int second_inc = first ? clock.opponent_increment_ms : clock.own_increment_ms;
    const std::string first_name = G::kPgnColours[0] == "Black" ? "b" : "w";
    const std::string second_name = first_name == "b" ? "w" : "b";
    std::string go = "go " + first_name + "time " + std::to_string(std::max(0, first_ms)) + " " + second_name +
                     "time " + std::to_string(std::max(0, second_ms)) + " " + first_name + "inc " +
                     std::to_string(first_inc) + " " + second_name + "inc " + std::to_string(second_inc);
    if (clock.moves_to_go > 0) go += " movestogo " + std::to_string(clock.moves_to_go);
    return go;
  }

  // A game's variant, where it has one the start's FEN cannot say (G::pgn_variant), as
  // UCI_Variant; sent again only when it changes.
  void send_variant(const std::string& variant) {
    if (variant.empty() || variant == variant_sent_) return;
    engine_->send("setoption name UCI_Variant value " + variant);
    variant_sent_ = variant;
  }

  // Starts the engine with the spec's options, each under the name the engine gives it (UCI's
  // names ignore case). One it does not list is still sent (engines keep some hidden, as lc0 does)
  // after a warning, as cutechess-cli warns; a value it answers with an error throws: a match with
  // it would measure something else. Ponder, which a pondering spec adds, goes only to an engine
  // that offers it.
  void start() {
    variant_sent_.clear();
    engine_ = std::make_unique<EngineProcess>(command_);
    engine_->send("uai");
    std::map<std::string, std::string> offered;  // lower case -> as the engine writes it
    engine_->expect("uaiok", timeout_ms_, [&](const std::string& line) {
      if (!line.starts_with("option name ")) return;
      const std::string name(trim(line.substr(12, line.find(" type ") - 12)));
      offered.emplace(lower_case(name), name);
    });
    for (const auto& [name, value] : engine_options_) {
      const auto listed = offered.find(lower_case(name));
      if (listed == offered.end() && lower_case(name) == "ponder") continue;
      if (listed == offered.end())
        warn_once(name + " is not among its options (" + names_of(offered) + "); sent as given");
      engine_->send("setoption name " + (listed == offered.end() ? name : listed->second) + " value " + value);
    }
    std::string refused;
    engine_->send("isready");
    engine_->expect("readyok", timeout_ms_, [&](const std::string& line) {
      if (line.starts_with("info string error") || line.starts_with("No such option")) refused += "; " + line;
    });
    if (!refused.empty()) throw std::runtime_error("the engine refused its options: " + refused.substr(2));
  }

  // On stderr, once a process for each engine and text (a match starts an engine in each thread).
  void warn_once(const std::string& text) const {
    static std::mutex mutex;
    static std::set<std::string> said;
    std::lock_guard lock(mutex);
    if (said.insert(command_ + text).second) std::fprintf(stderr, "warning: %s: %s\n", command_.c_str(), text.c_str());
  }

  static std::string names_of(const std::map<std::string, std::string>& offered) {
    std::string names;
    for (const auto& [lower, name] : offered) names += (names.empty() ? "" : ", ") + name;
    return names.empty() ? "none" : names;
  }

  std::string command_;
  std::map<std::string, std::string> engine_options_;
  std::string go_;
  int timeout_ms_;
  bool ponder_;  // thinks on the opponent's time
  std::unique_ptr<EngineProcess> engine_;
  std::optional<Game> pondered_;  // the game as it will be if the reply pondered on comes
  std::string variant_sent_;
  MoveReport report_;  // of the last move, from the engine's last info line with a score
};

}  // namespace

inline bool read_ponder(PlayerSpec& spec) { return spec.get_int("ponder", 0, 0, 1) == 1; }

template <typename G>
std::unique_ptr<BasicPlayer<G>> make_uai_player(PlayerSpec& spec) {
  const std::string command = spec.get_string("cmd", "");
  if (command.empty()) throw std::invalid_argument("player '" + spec.text() + "': uai needs cmd=PATH");
  const int movetime = spec.get_int("movetime", 0, 0, 3'600'000);
  const int nodes = spec.get_int("nodes", 0, 0, 2'000'000'000);
  const int depth = spec.get_int("depth", 0, 0, 1000);
  const int timeout = spec.get_int("timeout", 10'000, 1, 3'600'000);
  const bool ponder = read_ponder(spec);
  std::string go = "go movetime " + std::to_string(movetime > 0 ? movetime : 100);
  if (nodes > 0) go = "go nodes " + std::to_string(nodes);
  if (depth > 0) go = "go depth " + std::to_string(depth);
  std::map<std::string, std::string> engine_options = spec.take_rest();
  if (ponder) engine_options.try_emplace("Ponder", "true");  // as UCI asks of a GUI that ponders
  return std::make_unique<UaiPlayer<G>>(command, std::move(engine_options), go, timeout + movetime, ponder);
}

}  // namespace ataxx
