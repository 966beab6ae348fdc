#include "players/uai_player.h"

#include <algorithm>
#include <stdexcept>

#include "players/engine_process.h"
#include "util/text.h"

namespace ataxx {
namespace {

// Reads what an info line says of the search into report: depth, nodes, nps, time and score (`cp N`, `mate N`,
// or a bare `N` as some Ataxx engines send, taken as centipawns). A line without a score (info
// string, currmove) or of a MultiPV line but the first changes nothing.
void read_info(const std::string& line, MoveReport& report) {
  const std::vector<std::string> words = split_words(line);
  if (words.empty() || words[0] != "info") return;
  MoveReport read = report;
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

class UaiPlayer final : public Player {
 public:
  UaiPlayer(std::string command, std::map<std::string, std::string> engine_options, std::string go, int timeout_ms)
      : command_(std::move(command)), engine_options_(std::move(engine_options)), go_(std::move(go)), timeout_ms_(timeout_ms) {}

  void new_game(std::uint64_t) override {
    if (!engine_) start();
    engine_->send("uainewgame");
    engine_->send("isready");
    engine_->expect("readyok", timeout_ms_);
  }

  MoveReport last_report() const override { return report_; }

  Move choose_move(const Game& game) override {
    if (!engine_) start();
    report_ = {};
    std::string position = "position fen " + game.start().fen();
    if (!game.moves().empty()) {
      position += " moves";
      for (const Move m : game.moves()) position.append(" ").append(to_string(m, game.position().board()));
    }
    try {
      engine_->send(position);
      const GameClock& clock = limits_.clock;
      std::string go = clock.timed() ? go_with_clock(clock, game.position().side_to_move()) : go_;
      if (!limits_.search_moves.empty()) go += " searchmoves";
      for (const std::string& move : limits_.search_moves) go += " " + move;
      engine_->send(go);
      const std::string line = engine_->expect("bestmove", timeout_ms_ + std::max(0, clock.own_ms),
                                               [this](const std::string& info) { read_info(info, report_); });
      const auto space = line.find(' ');
      if (space == std::string::npos) throw std::runtime_error("uai engine answered '" + line + "'");
      const std::string text = line.substr(space + 1, line.find(' ', space + 1) - space - 1);
      return parse_move(text, game.position().board());
    } catch (...) {
      engine_.reset();  // restarted for the next game
      throw;
    }
  }

 private:
  // UAI names x's clock btime and o's wtime (x moves first, like Black in chess).
  static std::string go_with_clock(const GameClock& clock, Color mover) {
    const bool x = mover == Color::kX;
    const int x_ms = x ? clock.own_ms : clock.opponent_ms, o_ms = x ? clock.opponent_ms : clock.own_ms;
    const int x_inc = x ? clock.own_increment_ms : clock.opponent_increment_ms;
    const int o_inc = x ? clock.opponent_increment_ms : clock.own_increment_ms;
    std::string go = "go btime " + std::to_string(std::max(0, x_ms)) + " wtime " + std::to_string(std::max(0, o_ms)) +
                     " binc " + std::to_string(x_inc) + " winc " + std::to_string(o_inc);
    if (clock.moves_to_go > 0) go += " movestogo " + std::to_string(clock.moves_to_go);
    return go;
  }

  void start() {
    engine_ = std::make_unique<EngineProcess>(command_);
    engine_->send("uai");
    engine_->expect("uaiok", timeout_ms_);
    for (const auto& [name, value] : engine_options_) engine_->send("setoption name " + name + " value " + value);
    engine_->send("isready");
    engine_->expect("readyok", timeout_ms_);
  }

  std::string command_;
  std::map<std::string, std::string> engine_options_;
  std::string go_;
  int timeout_ms_;
  std::unique_ptr<EngineProcess> engine_;
  MoveReport report_;  // of the last move, from the engine's last info line with a score
};

}  // namespace

std::unique_ptr<Player> make_uai_player(PlayerSpec& spec) {
  const std::string command = spec.get_string("cmd", "");
  if (command.empty()) throw std::invalid_argument("player '" + spec.text() + "': uai needs cmd=PATH");
  const int movetime = spec.get_int("movetime", 0, 0, 3'600'000);
  const int nodes = spec.get_int("nodes", 0, 0, 2'000'000'000);
  const int depth = spec.get_int("depth", 0, 0, 1000);
  const int timeout = spec.get_int("timeout", 10'000, 1, 3'600'000);
  std::string go = "go movetime " + std::to_string(movetime > 0 ? movetime : 100);
  if (nodes > 0) go = "go nodes " + std::to_string(nodes);
  if (depth > 0) go = "go depth " + std::to_string(depth);
  return std::make_unique<UaiPlayer>(command, spec.take_rest(), go, timeout + movetime);
}

}  // namespace ataxx
