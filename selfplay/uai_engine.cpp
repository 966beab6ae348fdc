#include "selfplay/uai_engine.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace ataxx {
namespace {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

int to_int(const std::string& text, const std::string& what) {
  try {
    std::size_t used = 0;
    const long long value = std::stoll(text, &used);
    if (used == text.size()) return static_cast<int>(std::clamp<long long>(value, -1'000'000'000, 1'000'000'000));
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(what + " '" + text + "' is not an integer");
}

std::string info_line(const MoveReport& r) {
  std::ostringstream line;
  line << "info depth " << r.depth << " nodes " << r.nodes << " nps "
       << static_cast<long long>(r.nodes / std::max(r.seconds, 1e-6)) << " score cp " << r.score_cp << " time "
       << static_cast<int>(r.seconds * 1000) << " pv";
  for (const Move m : r.pv) line << ' ' << to_string(m);
  return line.str();
}

}  // namespace

int allocate_move_time(int remaining_ms, int increment_ms, int moves_to_go, int margin_ms) {
  const int moves = moves_to_go > 0 ? std::min(moves_to_go, 40) : 30;
  const int planned = remaining_ms / moves + increment_ms * 3 / 4;
  return std::max(1, std::min(planned, remaining_ms - margin_ms));
}

UaiEngine::UaiEngine(std::ostream& out) : out_(out) {}

UaiEngine::~UaiEngine() { stop_search(); }

void UaiEngine::say(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << std::endl;
}

void UaiEngine::stop_search() {
  stop_ = true;
  wait_for_search();
}

void UaiEngine::wait_for_search() {
  if (search_.joinable()) search_.join();
}

std::string UaiEngine::player_spec() const {
  if (options_.model.empty()) return options_.player;
  return "nn:model=" + options_.model + ",visits=" + std::to_string(options_.visits) + ",device=" + options_.device +
         ",max_batch=" + std::to_string(options_.batch_size) + ",cache=" + std::to_string(options_.cache_size) +
         ",threads=" + std::to_string(options_.threads);
}

bool UaiEngine::handle(std::string_view line) {
  const auto tokens = words(line);
  if (tokens.empty()) return true;
  const std::string& command = tokens[0];
  const std::string_view args = line.substr(std::min(line.size(), line.find(command) + command.size()));
  try {
    if (command == "uai") {
      say("id name ataxx-zero");
      say("id author the ataxx-zero developers");
      say("option name Model type string default <empty>");
      say("option name Player type string default alphabeta");
      say("option name Visits type spin default 800 min 1 max 100000000");  // for go depth; time and nodes rule otherwise
      say("option name Threads type spin default 1 min 1 max 64");
      say("option name BatchSize type spin default 64 min 1 max 65536");
      say("option name Device type string default cpu");
      say("option name CacheSize type spin default 0 min 0 max 67108864");
      say("uaiok");
    } else if (command == "isready") {
      say("readyok");
    } else if (command == "uainewgame") {
      wait_for_search();
      game_ = Game();
      if (player_) player_->new_game(1);
    } else if (command == "setoption") {
      wait_for_search();
      handle_setoption(args);
    } else if (command == "position") {
      wait_for_search();
      handle_position(args);
    } else if (command == "go") {
      wait_for_search();
      handle_go(args);
    } else if (command == "stop") {
      stop_search();
    } else if (command == "quit") {
      stop_search();
      return false;
    }  // anything else is ignored, as UAI asks
  } catch (const std::exception& e) {
    say(std::string("info string error: ") + e.what());
  }
  return true;
}

void UaiEngine::handle_setoption(std::string_view args) {
  // setoption name NAME value VALUE (names may have spaces; the value may be empty)
  const std::string text(args);
  const auto name_at = text.find("name");
  if (name_at == std::string::npos) throw std::invalid_argument("setoption without a name");
  const auto value_at = text.find(" value");
  const auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(' '));
    s.erase(s.find_last_not_of(' ') + 1);
    return s;
  };
  const std::string name = trim(text.substr(name_at + 4, value_at == std::string::npos ? std::string::npos : value_at - name_at - 4));
  const std::string value = value_at == std::string::npos ? "" : trim(text.substr(value_at + 6));
  set_option(name, value);
}

void UaiEngine::set_option(const std::string& name, const std::string& value) {
  std::string key = name;
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
  Options next = options_;
  if (key == "model") next.model = value == "<empty>" ? "" : value;
  else if (key == "player") next.player = value;
  else if (key == "visits") next.visits = std::max(1, to_int(value, "Visits"));
  else if (key == "threads") next.threads = std::clamp(to_int(value, "Threads"), 1, 64);
  else if (key == "batchsize") next.batch_size = std::max(1, to_int(value, "BatchSize"));
  else if (key == "device") next.device = value;
  else if (key == "cachesize") next.cache_size = std::max(0, to_int(value, "CacheSize"));
  else throw std::invalid_argument("unknown option '" + name + "'");
  const Options previous = options_;
  options_ = next;
  try {
    player_ = make_player(player_spec());  // made now, so that a bad model or spec is reported at once
    player_->new_game(1);
  } catch (...) {
    options_ = previous;
    throw;
  }
}

void UaiEngine::handle_position(std::string_view args) {
  const auto tokens = words(args);
  if (tokens.empty()) throw std::invalid_argument("position needs startpos or fen");
  std::size_t i = 1;
  Position start;
  if (tokens[0] == "startpos") {
    start = Position::startpos();
  } else if (tokens[0] == "fen") {
    std::string fen;
    for (; i < tokens.size() && tokens[i] != "moves"; ++i) fen += tokens[i] + " ";
    start = Position::from_fen(fen);
  } else {
    throw std::invalid_argument("position needs startpos or fen, not '" + tokens[0] + "'");
  }
  Game game(start);
  if (i < tokens.size() && tokens[i] == "moves")
    for (++i; i < tokens.size(); ++i) game.play(tokens[i]);
  game_ = std::move(game);  // only now: a bad move leaves the previous position in place
}

void UaiEngine::handle_go(std::string_view args) {
  const auto tokens = words(args);
  MoveLimits limits;
  int x_time = -1, o_time = -1, x_inc = 0, o_inc = 0, moves_to_go = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& key = tokens[i];
    if (key == "infinite") continue;
    if (i + 1 >= tokens.size()) throw std::invalid_argument("go " + key + " without a value");
    const int value = to_int(tokens[++i], "go " + key);
    if (key == "btime") x_time = value;  // x moves first, like Black in chess
    else if (key == "wtime") o_time = value;
    else if (key == "binc") x_inc = value;
    else if (key == "winc") o_inc = value;
    else if (key == "movestogo") moves_to_go = value;
    else if (key == "movetime") limits.movetime_ms = std::max(1, value - 5);  // answering takes a few ms
    else if (key == "nodes") limits.nodes = std::max(1, value);
    else if (key == "depth") limits.depth = std::max(1, value);
  }
  const bool x_to_move = game_.position().side_to_move() == Color::kX;
  const int clock = x_to_move ? x_time : o_time;
  if (clock >= 0 && limits.movetime_ms == 0)
    limits.movetime_ms = allocate_move_time(clock, x_to_move ? x_inc : o_inc, moves_to_go);

  MoveList moves;
  game_.position().generate_moves(moves);
  if (game_.outcome().is_over() || moves.empty() || (moves.size() == 1 && moves[0].is_pass())) {
    say("bestmove 0000");
    return;
  }
  if (!player_) {
    player_ = make_player(player_spec());
    player_->new_game(1);
  }
  stop_ = false;
  limits.stop = &stop_;
  player_->set_limits(limits);
  player_->on_progress([this](const MoveReport& r) { say(info_line(r)); });
  search_ = std::thread([this, game = game_] {
    Move best;
    try {
      best = player_->choose_move(game);
    } catch (const std::exception& e) {
      say(std::string("info string error: ") + e.what());
      MoveList legal;
      game.position().generate_moves(legal);
      best = legal[0];
    }
    say(info_line(player_->last_report()));
    say("bestmove " + to_string(best));
  });
}

}  // namespace ataxx
