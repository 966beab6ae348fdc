#include "uai/uai_engine.h"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include "players/network_player.h"
#include "util/text.h"

namespace ataxx {
namespace {

int to_int(const std::string& text, const std::string& what) {
  const auto value = parse_integer(text);
  if (!value) throw std::invalid_argument(what + " '" + text + "' is not an integer");
  return static_cast<int>(std::clamp<long long>(*value, -1'000'000'000, 1'000'000'000));
}

std::string info_line(const MoveReport& r, const Board& board) {
  std::ostringstream line;
  line << "info depth " << r.depth << " nodes " << r.nodes << " nps "
       << static_cast<long long>(r.nodes / std::max(r.seconds, 1e-6)) << " score cp " << r.score_cp << " time "
       << static_cast<int>(r.seconds * 1000) << " pv";
  for (const Move m : r.pv) line << ' ' << to_string(m, board);
  return line.str();
}

std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool name_is(const std::string& name, const std::string& lower) { return lower_case(name) == lower; }

// The command word of a line and what follows it.
std::pair<std::string, std::string_view> command_of(std::string_view line) {
  const std::string_view trimmed = trim(line);
  const std::size_t end = trimmed.find_first_of(" \t");
  if (end == std::string_view::npos) return {std::string(trimmed), {}};
  return {std::string(trimmed.substr(0, end)), trimmed.substr(end)};
}

}  // namespace

UaiEngine::UaiEngine(std::ostream& out, bool allow_external_engines)
    : out_(out), allow_external_engines_(allow_external_engines), thread_([this] { run_commands(); }) {}

UaiEngine::~UaiEngine() {
  {
    std::lock_guard lock(mutex_);
    queue_.clear();
    closing_ = true;
  }
  stop_searches();
  work_ready_.notify_all();
  thread_.join();
}

void UaiEngine::say(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << std::endl;
}

void UaiEngine::stop_searches() {
  std::lock_guard lock(mutex_);
  stopped_through_ = gos_received_;
  stop_ = true;
}

bool UaiEngine::handle(std::string_view line) {
  const auto [command, args] = command_of(line);
  if (command == "stop") {
    stop_searches();
    return true;
  }
  if (command == "quit") {  // what came before still runs, in order; searches stop at once
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    stop_searches();
    work_ready_.notify_all();
    return false;
  }
  {
    std::lock_guard lock(mutex_);
    if (closing_) return true;
    if (command == "isready" && gos_finished_ < gos_received_) {
      say("readyok");  // a search is running or queued: UAI wants the answer now
      return true;
    }
    queue_.push_back({std::string(line), command == "go" ? ++gos_received_ : 0});
  }
  work_ready_.notify_one();
  return true;
}

void UaiEngine::finish() {
  std::unique_lock lock(mutex_);
  input_ended_ = true;
  closing_ = true;
  if (infinite_running_) stop_ = true;
  work_ready_.notify_all();
  idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

void UaiEngine::wait_until_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

void UaiEngine::set_option(const std::string& name, const std::string& value) {
  wait_until_idle();
  apply_option(name, value);
}

void UaiEngine::run_commands() {
  std::unique_lock lock(mutex_);
  while (true) {
    work_ready_.wait(lock, [&] { return !queue_.empty() || closing_; });
    if (queue_.empty()) {
      idle_.notify_all();
      return;
    }
    const Command command = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    execute(command);
    lock.lock();
    busy_ = false;
    if (command.go_number > 0) gos_finished_ = command.go_number;
    if (queue_.empty()) idle_.notify_all();
  }
}

void UaiEngine::execute(const Command& command) {
  const auto [name, args] = command_of(command.line);
  try {
    if (name == "uai") {
      say("id name ataxx-zero");
      say("id author the ataxx-zero developers");
      say("option name Model type string default <empty>");
      say("option name Player type string default alphabeta");
      say("option name Visits type spin default 800 min 1 max 100000000");  // for go depth; time and nodes rule
                                                                            // otherwise
      say("option name Threads type spin default 1 min 1 max 64");
      say("option name BatchSize type spin default 64 min 1 max 65536");
      say("option name Device type string default cpu");
      say("option name CacheSize type spin default 0 min 0 max 67108864");
      say("option name MoveOverhead type spin default 50 min 0 max 10000");
      say("uaiok");
    } else if (name == "isready") {
      say("readyok");
    } else if (name == "uainewgame") {
      game_ = Game();
      if (player_) player_->new_game(1);
    } else if (name == "setoption") {
      handle_setoption(args);
    } else if (name == "position") {
      handle_position(args);
    } else if (name == "go") {
      handle_go(args, command.go_number);
    }  // anything else is ignored, as UAI asks
  } catch (const std::exception& e) {
    say(std::string("info string error: ") + e.what());
  }
}

void UaiEngine::handle_setoption(std::string_view args) {
  // setoption name NAME value VALUE (names may have spaces; the value may be empty)
  const std::string text(trim(args));
  if (!text.starts_with("name")) throw std::invalid_argument("setoption without a name");
  const auto value_at = text.find(" value");
  const std::string name(
      trim(std::string_view(text).substr(4, value_at == std::string::npos ? std::string::npos : value_at - 4)));
  const std::string value =
      value_at == std::string::npos ? "" : std::string(trim(std::string_view(text).substr(value_at + 6)));
  // Whoever sends UAI lines (a GUI, a match server forwarding options) must not start programs.
  if (!allow_external_engines_ && name_is(name, "player") && PlayerSpec(value).kind() == "uai")
    throw std::invalid_argument("Player: external engines (uai:...) are refused over UAI; start the engine with "
                                "--allow-external-engines to allow them");
  apply_option(name, value);
}

void UaiEngine::apply_option(const std::string& name, const std::string& value) {
  const std::string key = lower_case(name);
  Options next = options_;
  if (key == "model")
    next.model = value == "<empty>" ? "" : value;
  else if (key == "player")
    next.player = value;
  else if (key == "visits")
    next.visits = std::max(1, to_int(value, "Visits"));
  else if (key == "threads")
    next.threads = std::clamp(to_int(value, "Threads"), 1, 64);
  else if (key == "batchsize")
    next.batch_size = std::clamp(to_int(value, "BatchSize"), 1, 65536);
  else if (key == "device")
    next.device = value;
  else if (key == "cachesize")
    next.cache_size = std::clamp(to_int(value, "CacheSize"), 0, 1 << 26);
  else if (key == "moveoverhead")
    next.move_overhead_ms = std::clamp(to_int(value, "MoveOverhead"), 0, 10'000);
  else
    throw std::invalid_argument("unknown option '" + name + "'");
  const Options previous = std::exchange(options_, next);
  try {
    player_ = make_engine_player();  // made now, so that a bad model or spec is reported at once
    player_->new_game(1);
  } catch (...) {
    options_ = previous;
    throw;
  }
}

std::unique_ptr<Player> UaiEngine::make_engine_player() const {
  if (options_.model.empty()) return make_player(options_.player);
  NetworkPlayerOptions network;
  network.model = options_.model;
  network.search.visits = options_.visits;
  network.inference.device = options_.device;
  network.inference.max_batch = options_.batch_size;
  network.inference.cache_entries = options_.cache_size;
  // On the CPU one search's batch is shared by the threads; a GPU gets a server thread each.
  const bool cpu = options_.device == "cpu";
  network.inference.threads = cpu ? 1 : options_.threads;
  network.inference.batch_threads = cpu ? options_.threads : 1;
  return make_network_player(network);
}

void UaiEngine::handle_position(std::string_view args) {
  const auto tokens = split_words(args);
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

void UaiEngine::handle_go(std::string_view args, int go_number) {
  const auto tokens = split_words(args);
  MoveLimits limits;
  int x_time = -1, o_time = -1, x_inc = 0, o_inc = 0, moves_to_go = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& key = tokens[i];
    if (key == "infinite") {
      limits.infinite = true;
      continue;
    }
    if (i + 1 >= tokens.size()) throw std::invalid_argument("go " + key + " without a value");
    const int value = to_int(tokens[++i], "go " + key);
    if (key == "btime")
      x_time = std::max(0, value);  // x moves first, like Black in chess
    else if (key == "wtime")
      o_time = std::max(0, value);
    else if (key == "binc")
      x_inc = value;
    else if (key == "winc")
      o_inc = value;
    else if (key == "movestogo")
      moves_to_go = value;
    else if (key == "movetime")
      limits.movetime_ms = std::max(1, value - 5);  // answering takes a few ms
    else if (key == "nodes")
      limits.nodes = std::max(1, value);
    else if (key == "depth")
      limits.depth = std::max(1, value);
  }
  // The player plans its time from the clocks (players/time_manager.h); without any limit its
  // own budget applies.
  const bool x_to_move = game_.position().side_to_move() == Color::kX;
  limits.clock = {x_to_move ? x_time : o_time, std::max(0, x_to_move ? x_inc : o_inc), x_to_move ? o_time : x_time,
                  std::max(0, x_to_move ? o_inc : x_inc), std::max(0, moves_to_go), options_.move_overhead_ms};

  MoveList moves;
  game_.position().generate_moves(moves);
  if (game_.outcome().is_over() || moves.empty() || (moves.size() == 1 && moves[0].is_pass())) {
    say("bestmove 0000");
    return;
  }
  if (!player_) {
    player_ = make_engine_player();
    player_->new_game(1);
  }
  {
    std::lock_guard lock(mutex_);
    stop_ = stopped_through_ >= go_number || (limits.infinite && input_ended_);
    infinite_running_ = limits.infinite;
  }
  limits.stop = &stop_;
  player_->set_limits(limits);
  const Board* board = &game_.position().board();
  player_->on_progress([this, board](const MoveReport& r) { say(info_line(r, *board)); });
  Move best;
  try {
    best = player_->choose_move(game_);
  } catch (const std::exception& e) {
    say(std::string("info string error: ") + e.what());
    best = moves[0];
  }
  {
    std::lock_guard lock(mutex_);
    infinite_running_ = false;
  }
  say(info_line(player_->last_report(), *board));
  say("bestmove " + to_string(best, *board));
}

}  // namespace ataxx
