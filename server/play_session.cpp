#include "server/play_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <thread>

#include "analysis/analysis_engine.h"
#include "players/level_player.h"
#include "players/network_player.h"
#include "server/game_view.h"
#include "util/text.h"

namespace ataxx::server {

std::string text_of(const nlohmann::json& message) {
  return message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

constexpr int kProgressIntervalMs = 200;
// A level's move comes no sooner than this after it was asked for: at a person's pace.
constexpr auto kLevelPace = std::chrono::milliseconds(1000);
// What the engine may search on the player's time, unless the ponder message says (at most the
// session's limit): some tens of seconds of a person's thinking.
constexpr int kPonderVisits = 200'000;
// How often the analysis of the position shown reports while it searches.
constexpr double kAnalysisReportSeconds = 0.3;

int get_int(const json& message, const char* key, int fallback, int min, int max) {
  if (!message.contains(key)) return fallback;
  const json& value = message[key];
  if (!value.is_number_integer() || value.get<long long>() < min || value.get<long long>() > max)
    throw std::invalid_argument(fmt::format("\"{}\" must be an integer from {} to {}", key, min, max));
  return static_cast<int>(value.get<long long>());
}

std::string get_string(const json& message, const char* key, const std::string& fallback) {
  if (!message.contains(key)) return fallback;
  if (!message[key].is_string()) throw std::invalid_argument(fmt::format("\"{}\" must be a string", key));
  return message[key].get<std::string>();
}

// A search's report as the page gets it: of the game's state `version`, its move (final) or not.
template <typename G>
json think_message(const BasicMoveReport<G>& report, const typename G::Position& root, bool final, int version) {
  json message = report_json<G>(report, root);
  message["type"] = "think";
  message["final"] = final;
  message["version"] = version;
  return message;
}

// A list of moves' texts: a message's "moves".
std::vector<std::string> moves_of(const json& message) {
  std::vector<std::string> moves;
  if (!message.contains("moves")) return moves;
  if (!message["moves"].is_array()) throw std::invalid_argument("\"moves\" must be a list of moves");
  for (const json& move : message["moves"]) {
    if (!move.is_string()) throw std::invalid_argument("\"moves\" must be a list of moves, each a string");
    moves.push_back(move.get<std::string>());
  }
  return moves;
}

// A line refused at one of its moves: the error names its index too.
struct RefusedMove : std::invalid_argument {
  RefusedMove(std::size_t index, const char* message_type, const std::string& what)
      : std::invalid_argument(what), ply(index), of(message_type) {}
  std::size_t ply;
  const char* of;  // the type of the message refused
};

// The variant a game is played in: its own name for a game without variants.
template <typename G>
std::string variant_played(const typename G::Position& start) {
  const std::string variant = G::pgn_variant(start);
  return variant.empty() ? std::string(G::kName) : variant;
}

// The games the page offers: each game's name and title, whether it is played on boards, and
// its variants with their titles.
json games_json() {
  json games = json::array();
  Games::for_each([&]<typename G>() {
    json variants = json::array();
    for (std::size_t i = 0; i < G::kVariants.size(); ++i)
      variants.push_back({{"name", G::kVariants[i]}, {"title", G::kVariantTitles[i]}});
    games.push_back({{"name", G::kName}, {"title", G::kTitle}, {"boards", G::kHasBoards}, {"variants", variants}});
  });
  json levels = json::array();
  for (const LevelRating& level : kLevelRatings) levels.push_back({{"elo", level.elo}, {"skill", level.skill}});
  return {{"type", "games"}, {"games", games}, {"levels", levels}};
}

}  // namespace

PlaySession::PlaySession(PlayOptions options, SendText send)
    : options_(options),
      send_(std::move(send)),
      table_(make_table<Games::First>(typename Games::First::Game(Games::First::start()))) {
  std::lock_guard lock(mutex_);
  send_(text_of(games_json()));
  send_state();
}

PlaySession::~PlaySession() {
  std::unique_ptr<analysis::Engine> analysis;
  {
    std::lock_guard lock(mutex_);
    closing_ = true;  // a search ending now sends no state and starts no analysis
    jobs_.clear();
    if (current_stop_) *current_stop_ = true;
    stop_pondering();
    analysis = std::move(analysis_);
  }
  jobs_ready_.notify_all();
  if (thread_.joinable()) thread_.join();
  analysis.reset();  // its searches stopped, its last answers sent
}

void PlaySession::run_jobs() {
  std::unique_lock lock(mutex_);
  while (true) {
    jobs_ready_.wait(lock, [&] { return closing_ || !jobs_.empty(); });
    if (closing_) return;
    auto job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

void PlaySession::on_message(std::string_view text) {
  // Without exceptions: the parser's other errors (a number past a double's range) are refused too.
  const json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return send_error("a message must be JSON");
  if (!message.is_object() || !message.contains("type") || !message["type"].is_string())
    return send_error("a message is a JSON object with a \"type\"");
  std::lock_guard lock(mutex_);
  try {
    handle(message["type"].get<std::string>(), message);
  } catch (const RefusedMove& e) {
    json error = {{"type", "error"}, {"message", e.what()}, {"ply", e.ply}, {"of", e.of}};
    if (std::string_view(e.of) == "line" && message.contains("id")) error["line_id"] = message["id"];  // the page's name for it
    send_(text_of(error));
  } catch (const std::exception& e) {
    send_error(e.what());
  }
}

void PlaySession::handle(const std::string& type, const json& message) {
  if (type == "new") return start_new(message);
  if (type == "stop") {
    if (current_stop_) *current_stop_ = true;
    stop_pondering();
    return;
  }
  if (type == "review") {
    const std::string id = get_string(message, "id", "");
    if (utf8_length(id) > 64) throw std::invalid_argument("a review's \"id\" is at most 64 characters");
    return review(id, get_int(message, "visits", 200, 1, options_.max_visits));
  }
  if (type == "analyze") {
    if (!message.contains("on") || !message["on"].is_boolean()) throw std::invalid_argument("\"on\" must be true or false");
    analysing_ = message["on"].get<bool>();
    analysed_version_ = -1;
    if (!analysing_) stop_query(shown_query_);
    return analyse_shown();
  }
  if (type == "ponder") return std::visit([&](auto& table) { ponder(table, message); }, table_);  // no state: no change
  std::visit(
      [&](auto& table) {
        if (type == "move")
          play_human(table, get_string(message, "move", ""));
        else if (type == "undo")
          undo(table, get_int(message, "plies", 1, 1, 100'000));
        else if (type == "line")
          set_line(table, moves_of(message), message.contains("id") ? message["id"] : json());
        else if (type == "go")
          go(table, message);
        else
          throw std::invalid_argument("unknown message type '" + type + "'");
      },
      table_);
  send_state();
}

template <typename G>
void PlaySession::play_human(Table<G>& table, const std::string& text) {
  if (thinking_) throw std::invalid_argument("the engine is thinking: stop it first");
  play(table, legal_move(table, text));
}

template <typename G>
typename G::Move PlaySession::legal_move(const Table<G>& table, const std::string& text) {
  if (table.game.outcome().is_over()) throw std::invalid_argument("the game is over");
  const auto& pos = table.game.position();
  const auto move = G::parse_move_text(text, pos);
  typename G::MoveList moves;
  pos.generate_moves(moves);
  if (std::find(moves.begin(), moves.end(), move) == moves.end())
    throw std::invalid_argument("'" + text + "' is not a legal move here");
  return move;
}

template <typename G>
void PlaySession::advance(Table<G>& table, const typename G::Move& move) {
  table.positions.push_back(table.game.position());
  table.game.play(move);
}

template <typename G>
void PlaySession::play_line(Table<G>& table, const std::vector<std::string>& moves, const char* refused_in) {
  for (std::size_t i = 0; i < moves.size(); ++i) {
    try {
      advance(table, legal_move(table, moves[i]));
    } catch (const std::invalid_argument& e) {
      throw RefusedMove(i, refused_in, "move " + std::to_string(i + 1) + " ('" + moves[i] + "'): " + e.what());
    }
  }
}

template <typename G>
void PlaySession::undo(Table<G>& table, int plies) {
  const auto& moves = table.game.moves();
  if (moves.empty()) throw std::invalid_argument("no move to take back");
  const std::size_t keep = moves.size() - std::min<std::size_t>(plies, moves.size());
  auto kept = history_of(table).template get<std::vector<std::string>>();
  kept.resize(keep);
  set_line(table, kept, nullptr);
}

template <typename G>
void PlaySession::set_line(Table<G>& table, const std::vector<std::string>& moves, json id) {
  if (!id.is_null() && !id.is_string() && !id.is_number_integer())
    throw std::invalid_argument("a line's \"id\" must be a string or an integer");
  if (id.is_string() && utf8_length(id.get<std::string>()) > 64)
    throw std::invalid_argument("a line's \"id\" is at most 64 characters");
  Table<G> line = table;
  line.game = typename G::Game(table.game.start(), table.game.rules());
  line.positions.clear();
  play_line(line, moves, "line");
  abandon_search();
  table = std::move(line);
  ++version_;
  line_answered_ = std::move(id);
}

void PlaySession::start_new(const json& message) {
  const std::string fen = get_string(message, "fen", "");
  const std::vector<std::string> moves = moves_of(message);
  auto table_of = [&]<typename G>() -> AnyTable {
    // A game with boards names one, another its variant; a FEN says the rest (and where it alone
    // named the game, a variant of another game is not this one's).
    std::string name = G::kHasBoards ? get_string(message, "board", G::board_name(G::start()))
                                     : get_string(message, "variant", std::string(G::kName));
    if (!G::kHasBoards && !message.contains("game") && !Games::plays<G>(name)) name = G::kName;
    Table<G> table = make_table<G>(typename G::Game(fen.empty() ? G::start_of(name) : G::from_fen(fen, name)));
    play_line(table, moves, "new");
    return AnyTable(std::move(table));
  };
  // The game named, else the FEN's (the first game that claims it), else the first game.
  AnyTable table = message.contains("game") || fen.empty()
                       ? Games::with_game_named(get_string(message, "game", std::string(Games::First::kName)), table_of)
                       : Games::with_game_of_fen(fen, table_of);
  abandon_search();
  table_ = std::move(table);
  ++version_;
  ++games_started_;
  send_state();
}

template <typename G>
json PlaySession::history_of(const Table<G>& table) {
  json history = json::array();
  for (std::size_t i = 0; i < table.game.moves().size(); ++i)
    history.push_back(G::move_text(table.game.moves()[i], table.positions[i]));
  return history;
}

template <typename G>
PlaySession::Table<G> PlaySession::make_table(typename G::Game game) const {
  Table<G> table;
  const std::string board = G::board_name(game.position());
  const NetShelf::Net* net = options_.nets ? options_.nets->net_for(game.position()) : nullptr;
  if (net) {
    table.engine_model = net->path;
    table.engine_name = net->info.name + " (" + std::filesystem::path(net->path).filename().string() + ")";
    // The net searches under its rules: the game is played under them too.
    game = typename G::Game(game.start(), G::rules_from(net->info.rules));
  } else {
    table.engine_name = "alphabeta: no net plays " + board;
  }
  table.game = std::move(game);
  return table;
}

template <typename G>
void PlaySession::ready_engine(Table<G>& table, std::optional<int> skill) const {
  if (table.engine_model.empty()) skill.reset();  // alphabeta plays at its own strength
  if (table.engine && table.engine_skill == skill) return;
  if (table.engine_model.empty()) {
    table.engine = make_player<G>("alphabeta");
  } else {
    BasicNetworkPlayerOptions<G> network;
    network.model = table.engine_model;
    network.use_search_threads(options_.threads);
    network.skill = skill;
    table.engine = make_network_player<G>(network);
  }
  table.engine_skill = skill;
  table.engine->new_game(std::random_device{}());  // a level's draws differ from game to game
}

template <typename G>
void PlaySession::play(Table<G>& table, const typename G::Move& move) {
  stop_pondering();
  advance(table, move);
  ++version_;
}

template <typename G>
void PlaySession::go(Table<G>& table, const json& message) {
  // A go may name the state it was asked in: one that crossed a move or a new game on its way is
  // for a position the game has left, and is dropped (the page's engine-vs-engine loop sends them).
  if (get_int(message, "version", version_, 0, INT_MAX) != version_) return;
  if (thinking_) throw std::invalid_argument("the engine is already thinking");
  if (table.game.outcome().is_over()) throw std::invalid_argument("the game is over");
  MoveLimits limits;
  limits.nodes = get_int(message, "visits", 0, 1, options_.max_visits);
  limits.movetime_ms = get_int(message, "movetime", 0, 1, options_.max_movetime_ms);
  if (limits.nodes == 0 && limits.movetime_ms == 0) limits.nodes = 800;
  limits.progress_interval_ms = kProgressIntervalMs;
  const int elo = get_int(message, "elo", 0, 0, kLevelRatings.back().elo);
  ready_engine(table, elo > 0 ? std::optional<int>(skill_for_elo(elo)) : std::nullopt);
  const bool at_a_level = elo > 0 && !table.engine_model.empty();
  stop_pondering();
  auto stop = std::make_shared<std::atomic<bool>>(false);
  limits.stop = stop.get();
  current_stop_ = stop;
  thinking_ = true;
  queue([this, engine = table.engine, game = table.game, version = version_, stop, limits, at_a_level] {
    const auto asked = std::chrono::steady_clock::now();
    auto think = [&](const BasicMoveReport<G>& report, bool final) {
      send_(text_of(think_message<G>(report, game.position(), final, version)));
    };
    engine->set_limits(limits);
    engine->on_progress([&](const BasicMoveReport<G>& report) { think(report, false); });
    std::string error;
    typename G::Move move{};
    try {
      move = engine->choose_move(game);
    } catch (const std::exception& e) {
      error = e.what();
    }
    engine->on_progress(nullptr);
    if (at_a_level)
      while (!*stop && std::chrono::steady_clock::now() < asked + kLevelPace)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard lock(mutex_);
    if (version != version_ || closing_) return;  // the game changed meanwhile: the move is dropped
    thinking_ = false;
    current_stop_.reset();
    if (error.empty()) {
      think(engine->last_report(), true);
      play(std::get<Table<G>>(table_), move);
    } else {
      send_error("the engine failed: " + error);
    }
    send_state();
  });
}

// The engine searches the position shown, the player to move, until the game changes: the tree it
// grows is the one its next search starts from (where the player moved as it searched).
template <typename G>
void PlaySession::ponder(Table<G>& table, const json& message) {
  if (message.contains("on") && !message["on"].is_boolean()) throw std::invalid_argument("\"on\" must be true or false");
  if (!message.value("on", true)) return stop_pondering();
  const int visits = get_int(message, "visits", std::min(kPonderVisits, options_.max_visits), 1, options_.max_visits);
  if (get_int(message, "version", version_, 0, INT_MAX) != version_) return;  // asked in a state left since
  if (thinking_) throw std::invalid_argument("the engine is thinking");
  if (table.game.outcome().is_over()) throw std::invalid_argument("the game is over");
  // Alpha-beta keeps no tree for its next search, and this version is pondered on already.
  if (table.engine_model.empty() || (ponder_stop_ && pondered_version_ == version_)) return;
  MoveLimits limits;
  limits.nodes = visits;
  limits.progress_interval_ms = kProgressIntervalMs;
  ready_engine(table, std::nullopt);
  stop_pondering();
  auto stop = std::make_shared<std::atomic<bool>>(false);
  limits.stop = stop.get();
  ponder_stop_ = stop;
  pondered_version_ = version_;
  queue([this, engine = table.engine, game = table.game, version = version_, stop, limits] {
    auto think = [&](const BasicMoveReport<G>& report, bool final) {
      json message = think_message<G>(report, game.position(), final, version);
      message["ponder"] = true;
      send_(text_of(message));
    };
    engine->set_limits(limits);
    engine->on_progress([&](const BasicMoveReport<G>& report) { think(report, false); });
    std::string error;
    try {
      engine->choose_move(game);  // its move is not played: its tree is what is kept
    } catch (const std::exception& e) {
      error = e.what();
    }
    engine->on_progress(nullptr);
    std::lock_guard lock(mutex_);
    if (closing_) return;
    if (!error.empty()) return send_error("the engine failed while pondering: " + error);
    think(engine->last_report(), true);
  });
}

void PlaySession::queue(std::function<void()> job) {
  if (!thread_.joinable()) thread_ = std::thread([this] { run_jobs(); });
  jobs_.push_back(std::move(job));
  jobs_ready_.notify_one();
}

void PlaySession::stop_pondering() {
  if (ponder_stop_) *ponder_stop_ = true;
  ponder_stop_.reset();
}

void PlaySession::abandon_search() {
  stop_pondering();
  if (current_stop_) *current_stop_ = true;
  current_stop_.reset();
  thinking_ = false;
}

void PlaySession::send_error(const std::string& message) { send_(text_of(json{{"type", "error"}, {"message", message}})); }

void PlaySession::send_state() {
  std::visit(
      [&](const auto& table) {
        using G = typename std::decay_t<decltype(table)>::GameType;
        using View = GameView<G>;
        const auto& game = table.game;
        const auto& pos = game.position();
        const Outcome outcome = game.outcome();
        json legal = json::array();
        if (!outcome.is_over() && !thinking_) {
          typename G::MoveList moves;
          pos.generate_moves(moves);
          for (const auto& move : moves) legal.push_back({{"text", G::move_text(move, pos)}, {"ways", View::ways(move, pos)}});
        }
        const json history = history_of(table);
        json last = nullptr;
        if (!game.moves().empty()) {
          const auto& before = table.positions.back();
          const auto move = game.moves().back();
          last = {{"move", G::move_text(move, before)},
                  {"ways", View::ways(move, before)},
                  {"turned", turned_cells<G>(before, pos)}};
        }
        json state = {{"type", "state"},
                            {"game", G::kName},
                            {"variant", variant_played<G>(game.start())},
                            {"board", View::board(pos)},
                            {"men", View::men(pos)},
                            {"colours", {View::kColours[0], View::kColours[1]}},
                            {"side", index(pos.side_to_move())},
                            {"fen", pos.fen()},
                            {"start_fen", game.start().fen()},
                            {"moves", legal},
                            {"history", history},
                            {"last", last},
                            {"outcome", outcome_json(outcome, View::kColours)},
                            {"counts", View::counts(pos)},
                            {"engine", table.engine_name},
                            {"game_number", games_started_},
                            {"version", version_},
                            {"thinking", thinking_}};
        if (!line_answered_.is_null()) state["line_id"] = std::exchange(line_answered_, nullptr);
        send_(text_of(state));
      },
      table_);
  analyse_shown();
}

void PlaySession::analyse_shown() {
  if (!analysing_ || analysed_version_ == version_ || closing_) return;
  analysed_version_ = version_;
  stop_query(shown_query_);
  shown_query_ = "shown-" + std::to_string(version_);
  json query = game_query(shown_query_);
  query["maxVisits"] = options_.max_visits;
  query["reportDuringSearchEvery"] = kAnalysisReportSeconds;
  query["includeOwnership"] = true;
  query["priority"] = 1;  // before a review's turns still queued
  analyse(text_of(query));
}

void PlaySession::review(const std::string& id, int visits) {
  stop_query(review_query_);
  review_query_ = "review-" + (id.empty() ? std::to_string(version_) : id);
  json query = game_query(review_query_);
  const int turns = static_cast<int>(query["moves"].size());
  for (int turn = 0; turn <= turns; ++turn) query["analyzeTurns"].push_back(turn);
  query["maxVisits"] = visits;
  analyse(text_of(query));
}

void PlaySession::stop_query(std::string& id) {
  if (id.empty()) return;
  analyse(text_of(json{{"id", "stop"}, {"action", "terminate"}, {"terminateId", id}}));
  id.clear();
}

json PlaySession::game_query(const std::string& id) const {
  return std::visit(
      [&](const auto& table) {
        using G = typename std::decay_t<decltype(table)>::GameType;
        return json{{"id", id},
                    {"initialFen", table.game.start().fen()},
                    {"variant", variant_played<G>(table.game.start())},
                    {"moves", history_of(table)}};
      },
      table_);
}

void PlaySession::analyse(const std::string& line) {
  if (closing_) return;
  if (!analysis_)
    analysis_ = std::make_unique<analysis::Engine>(
        // Two turns at once: a review's beside the position shown's, which searches until it changes
        // (and whose query goes first).
        analysis::Options{.nets = options_.nets, .threads = 2, .search_threads = options_.threads},
        [this](const std::string& answer_line) {
          json answer = json::parse(answer_line);
          if (answer.contains("action")) return;  // the engine's word that it stopped a query
          answer["type"] = "analysis";
          send_(text_of(answer));
        });
  analysis_->handle(line);
}

}  // namespace ataxx::server
