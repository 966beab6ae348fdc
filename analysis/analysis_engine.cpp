#include "analysis/analysis_engine.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_map>

#include "analysis/tree_ownership.h"
#include "games/registry.h"
#include "players/mcts_player.h"
#include "players/network_player.h"
#include "util/text.h"
#include "util/version.h"

namespace ataxx::analysis {

using json = nlohmann::ordered_json;

struct Engine::Task {
  std::string id;
  int turn = 0;
  int priority = 0;
  std::atomic<bool> stop{false};
  std::function<void(const std::atomic<bool>&)> run;  // searches the turn and answers
};

namespace {

double rounded(double x, double steps = 1e4) { return std::round(x * steps) / steps + 0.0; }  // + 0.0: no -0

// The net's ownership of the positions of a turn's search, from each position's mover's view; each
// position asked of the net once, however many answers during the search ask for it.
template <typename G>
class OwnershipCache {
 public:
  explicit OwnershipCache(std::shared_ptr<BasicInferenceServer<G>> server) : server_(std::move(server)) {}
  const std::vector<float>& of(const typename G::Position& pos) {
    const std::lock_guard lock(mutex_);
    auto [known, added] = known_.try_emplace(pos.hash());
    if (added) known->second = server_->ownership(pos);
    return known->second;  // a node of the map: it stays where it is as the map grows
  }

 private:
  std::shared_ptr<BasicInferenceServer<G>> server_;
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::vector<float>> known_;
};

// The position of a turn, whose view its answer takes, and its search.
template <typename G>
struct Turn {
  const typename G::Position& pos;
  bool for_other_side;  // reportAnalysisWinratesAs names the side not to move here
  OwnershipCache<G>& ownership;
  const BasicSearch<G>& search;
};

template <typename G>
bool reported_for_other_side(Perspective view, const typename G::Position& pos) {
  if (view == Perspective::kSideToMove) return false;
  const std::string_view colour = view == Perspective::kBlack ? "Black" : "White";
  return G::kPgnColours[index(pos.side_to_move())] != colour;
}

// A value from the view of the side to move, reported from the turn's view: its win rate counts a
// draw as half a win (KataGo's), its lead in men.
template <typename G>
void put_value(json& info, const Wdl& value, const Turn<G>& turn) {
  const Wdl seen = turn.for_other_side ? value.flipped() : value;
  info["winrate"] = rounded(seen.win + seen.draw / 2);
  info["drawrate"] = rounded(seen.draw);
  info["scoreLead"] = rounded(seen.lead * G::cells(turn.pos), 100);
}

// Owners from the view of the side to move at `at`, seen from the turn's view.
template <typename G>
std::vector<float> from_turns_view(std::vector<float> owners, const typename G::Position& at, const Turn<G>& turn) {
  if ((at.side_to_move() != turn.pos.side_to_move()) != turn.for_other_side)
    for (float& owner : owners) owner = -owner;
  return owners;
}

// The net's ownership of `at`'s cells from the turn's view.
template <typename G>
std::vector<float> net_ownership(const typename G::Position& at, const Turn<G>& turn) {
  return from_turns_view(turn.ownership.of(at), at, turn);
}

// A finished game's ownership, its men's, from the turn's view: the net's, never trained on a
// finished board, would blur what is settled.
template <typename G>
std::vector<float> final_ownership(const typename G::Position& at, const Turn<G>& turn) {
  const Bitboard own = G::men(at, at.side_to_move()), theirs = G::men(at, ~at.side_to_move());
  std::vector<float> owners(G::cells(at));
  for (int cell = 0; cell < static_cast<int>(owners.size()); ++cell)
    owners[cell] = (own >> cell & 1) ? 1.0f : (theirs >> cell & 1) ? -1.0f : 0.0f;
  return from_turns_view(std::move(owners), at, turn);
}

// The search's ownership of the turn's position and of those after its moves, as KataGo's
// (tree_ownership.h), from the turn's view: over the tree as it stands when first asked, each
// node's position asked of the net once (a finished game's its final men).
template <typename G>
class SearchOwnership {
 public:
  explicit SearchOwnership(const Turn<G>& turn) : turn_(turn) {}
  SearchOwnership(const SearchOwnership&) = delete;  // ownership_ reads tree_ where it is
  SearchOwnership& operator=(const SearchOwnership&) = delete;
  OwnershipSpread of_turn() { return walked().empty() ? alone(turn_.pos) : from(0); }
  OwnershipSpread after(typename G::Move move) {
    const auto& tree = walked();
    for (std::size_t node = 1; node < tree.size() && tree[node].parent == 0; ++node)  // the root's children first
      if (tree[node].move == move) return from(node);
    typename G::Position next = turn_.pos;
    next.make_move(move);
    return alone(next);
  }

 private:
  using Node = typename BasicSearch<G>::TreeNode;
  const std::vector<Node>& walked() {
    if (!tree_) {
      tree_ = turn_.search.visited_tree(1);
      ownership_.emplace(*tree_);
    }
    return *tree_;
  }
  // A position the tree has not visited: the net's ownership alone.
  OwnershipSpread alone(const typename G::Position& pos) {
    std::vector<float> owners = net_ownership(pos, turn_);
    return {.mean = owners, .stdev = std::vector<float>(owners.size(), 0.0f)};
  }
  OwnershipSpread from(std::size_t node) {
    return ownership_->of(node, [&](std::size_t n) {
      return (*tree_)[n].finished ? final_ownership(position(n), turn_) : net_ownership(position(n), turn_);
    });
  }
  const typename G::Position& position(std::size_t node) {
    if (node == 0) return turn_.pos;
    auto known = positions_.find(node);
    if (known == positions_.end()) {
      typename G::Position pos = position((*tree_)[node].parent);
      pos.make_move((*tree_)[node].move);
      known = positions_.emplace(node, pos).first;  // a node of the map: it stays where it is
    }
    return known->second;
  }

  const Turn<G>& turn_;
  std::optional<std::vector<Node>> tree_;
  std::optional<TreeOwnership<Node>> ownership_;                // over tree_
  std::unordered_map<std::size_t, typename G::Position> positions_;  // of the nodes asked for
};

json cells_json(const std::vector<float>& values) {
  json cells = json::array();
  for (const float value : values) cells.push_back(rounded(value));
  return cells;
}

// The ownership fields of an answer or a move: `ownership` and, where asked, `ownershipStdev`.
// Each field only where it is asked, as KataGo.
void put_ownership(json& info, const OwnershipSpread& spread, bool mean, bool stdev) {
  if (mean) info["ownership"] = cells_json(spread.mean);
  if (stdev) info["ownershipStdev"] = cells_json(spread.stdev);
}

json no_results(const std::string& id, int turn) {
  return {{"id", id}, {"turnNumber", turn}, {"isDuringSearch", false}, {"noResults", true}};
}

template <typename G>
json move_info(const Query& query, const BasicCandidateMove<G>& candidate, const Turn<G>& turn, int order,
               SearchOwnership<G>& ownership) {
  json info = {{"move", G::move_text(candidate.move, turn.pos)},
               {"visits", candidate.visits},
               {"prior", rounded(candidate.prior)},
               {"order", order}};
  const float expectation = candidate.value;
  put_value(
      info,
      candidate.search_value.value_or(Wdl{.win = (1 + expectation) / 2, .draw = 0, .loss = (1 - expectation) / 2}),
      turn);
  if (candidate.lower_bound) info["lcb"] = rounded((1 + (turn.for_other_side ? -1 : 1) * *candidate.lower_bound) / 2);
  const std::size_t length = query.settings.pv_length < 0
                                 ? candidate.pv.size()
                                 : std::min<std::size_t>(candidate.pv.size(), 1 + query.settings.pv_length);
  json pv = json::array();
  typename G::Position after = turn.pos;
  for (std::size_t i = 0; i < length; ++i) {
    pv.push_back(G::move_text(candidate.pv[i], after));
    after.make_move(candidate.pv[i]);
  }
  info["pv"] = std::move(pv);
  if (query.include_pv_visits)
    info["pvVisits"] = std::vector<int>(candidate.pv_visits.begin(),
                                        candidate.pv_visits.begin() + std::min(length, candidate.pv_visits.size()));
  if (query.include_moves_ownership || query.include_moves_ownership_stdev)
    put_ownership(info, ownership.after(candidate.move), query.include_moves_ownership,
                  query.include_moves_ownership_stdev);
  return info;
}

// The answer for a turn: the moves searched, the one the engine would play first (`chosen`, where
// the search is over, else the most visited), then by visits.
template <typename G>
json answer_of(const Query& query, const Turn<G>& turn, int turn_number, const BasicMoveReport<G>& report,
               std::optional<typename G::Move> chosen, bool during_search) {
  const auto& pos = turn.pos;
  std::vector<const BasicCandidateMove<G>*> searched;
  for (const auto& candidate : report.candidates)
    if (candidate.visits > 0) searched.push_back(&candidate);
  if (chosen) {
    const auto first = std::ranges::find_if(searched, [&](const auto* c) { return c->move == *chosen; });
    if (first != searched.end()) std::rotate(searched.begin(), first, first + 1);
  }
  SearchOwnership<G> ownership(turn);
  json infos = json::array();
  for (const auto* candidate : searched)
    infos.push_back(move_info<G>(query, *candidate, turn, static_cast<int>(infos.size()), ownership));
  json root = {{"visits", report.nodes},
               {"currentPlayer", std::string(G::kSideNames[index(pos.side_to_move())])}};
  if (const auto value = report.search_value ? report.search_value : report.network_value)
    put_value(root, *value, turn);
  json answer = {{"id", query.id},
                 {"turnNumber", turn_number},
                 {"isDuringSearch", during_search},
                 {"moveInfos", std::move(infos)},
                 {"rootInfo", std::move(root)}};
  if (query.include_policy) {
    json policy = json::object();
    for (const auto& candidate : report.candidates) policy[G::move_text(candidate.move, pos)] = rounded(candidate.prior);
    answer["policy"] = std::move(policy);
  }
  if (query.include_ownership || query.include_ownership_stdev)
    put_ownership(answer, ownership.of_turn(), query.include_ownership, query.include_ownership_stdev);
  return answer;
}

// The side a restriction's player names, in any case: its name (x, o), its PGN colour (Black,
// White: Ataxx's x is Black), or KataGo's B and W.
template <typename G>
std::optional<Color> side_named(std::string_view player) {
  const std::string name = lower_case(std::string(player));
  for (const Color side : {Color::kX, Color::kO}) {
    const std::string colour = lower_case(std::string(G::kPgnColours[index(side)]));
    if (name == lower_case(std::string(G::kSideNames[index(side)])) || name == colour || name == colour.substr(0, 1))
      return side;
  }
  return std::nullopt;
}

// Whether a restriction's moves name `move` (they were checked to parse when the query came).
template <typename G>
bool restriction_names(const MoveRestriction& restriction, typename G::Move move, const typename G::Position& pos) {
  return std::ranges::any_of(restriction.moves,
                             [&](const std::string& text) { return G::parse_move_text(text, pos) == move; });
}

// The moves a turn's search may play under the query's allowMoves and avoidMoves, in the game's
// notation; empty where neither names the side to move, or where it has one move only (a pass).
template <typename G>
std::vector<std::string> moves_allowed(const Query& query, const typename G::Position& pos) {
  const auto applies = [&](const MoveRestriction& r) { return side_named<G>(r.player) == pos.side_to_move(); };
  if (std::ranges::none_of(query.allow_moves, applies) && std::ranges::none_of(query.avoid_moves, applies)) return {};
  typename G::MoveList legal;
  pos.generate_moves(legal);
  if (legal.size() == 1) return {};
  std::vector<std::string> allowed;
  for (const auto move : legal) {
    const auto allows = [&](const MoveRestriction& r) { return !applies(r) || restriction_names<G>(r, move, pos); };
    const auto avoids = [&](const MoveRestriction& r) { return applies(r) && restriction_names<G>(r, move, pos); };
    if (std::ranges::all_of(query.allow_moves, allows) && std::ranges::none_of(query.avoid_moves, avoids))
      allowed.push_back(G::move_text(move, pos));
  }
  if (allowed.empty()) throw std::invalid_argument("allowMoves and avoidMoves leave no legal move at this turn");
  return allowed;
}

// Throws QueryError where a restriction of `field` names no side of the game or a move its
// notation cannot read.
template <typename G>
void check_restriction(const MoveRestriction& restriction, const char* field, const typename G::Position& start) {
  if (!side_named<G>(restriction.player))
    throw QueryError(field, "player '" + restriction.player + "' is not a side of " + std::string(G::kTitle) + " (" +
                                std::string(G::kSideNames[0]) + " or " + std::string(G::kSideNames[1]) + ")");
  for (const std::string& move : restriction.moves) {
    try {
      G::parse_move_text(move, start);
    } catch (const std::invalid_argument& e) {
      throw QueryError(field, "move '" + move + "': " + e.what());
    }
  }
}

// A turn's player: the net's, with the search options of the query's overrideSettings.
template <typename G>
BasicNetworkPlayerOptions<G> player_options(const std::string& model, int search_threads, const Settings& settings) {
  BasicNetworkPlayerOptions<G> options;
  options.model = model;
  options.use_search_threads(search_threads);
  if (settings.search_spec.empty()) return options;
  PlayerSpec spec("overrideSettings:" + settings.search_spec);
  try {
    options.c_puct_by_board = !spec.has("cpuct");
    options.search = read_search_params<G>(spec, options.search);
  } catch (const std::invalid_argument& e) {  // the spec's words without the spec, made here
    const std::string reason = e.what(), made = "player '" + spec.text() + "': ";
    throw QueryError("overrideSettings", reason.starts_with(made) ? reason.substr(made.size()) : reason);
  }
  return options;
}

// Calls make.template operator()<G>(start) with the query's start position: its FEN's, else its
// variant's start (the first game's without either).
template <typename Make>
auto at_start(const Query& query, Make&& make) {
  const std::string_view variant = query.variant.empty() ? Games::First::kName : std::string_view(query.variant);
  const char* field = query.initial_fen.empty() ? "variant" : "initialFen";
  auto visit = [&]<typename G>() {
    const typename G::Position start = [&] {
      try {
        const std::string_view name = Games::plays<G>(variant) ? variant : G::kName;
        return query.initial_fen.empty() ? start_of_variant<G>(name) : G::from_fen(query.initial_fen, name);
      } catch (const std::invalid_argument& e) {
        throw QueryError(field, e.what());
      }
    }();
    return make.template operator()<G>(start);
  };
  try {
    if (query.initial_fen.empty() || !query.variant.empty()) return Games::with_game(variant, visit);
    return Games::with_game_of_fen(query.initial_fen, visit);
  } catch (const QueryError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw QueryError(query.variant.empty() ? field : "variant", e.what());
  }
}

}  // namespace

Engine::Engine(Options options, Send send) : options_(options), send_(std::move(send)) {
  for (int i = 0; i < std::max(options_.threads, 1); ++i) workers_.emplace_back([this] { work(); });
}

Engine::~Engine() {
  std::deque<TaskPtr> dropped;
  {
    const std::lock_guard lock(mutex_);
    dropped.swap(queued_);
    for (const TaskPtr& task : running_) task->stop = true;
    closing_ = true;
  }
  task_ready_.notify_all();
  for (const TaskPtr& task : dropped) send(no_results(task->id, task->turn));
  for (std::thread& worker : workers_) worker.join();
}

void Engine::send(const json& answer) {
  const std::string line = answer.dump(-1, ' ', false, json::error_handler_t::replace);
  const std::lock_guard lock(send_mutex_);
  send_(line);
}

void Engine::handle(std::string_view line) {
  if (trim(line).empty()) return;
  json parsed;
  std::string why = "not an object";
  try {
    parsed = json::parse(line);
  } catch (const json::exception& e) {  // "[json.exception.parse_error.101] parse error at ...": the reason
    const std::string_view what = e.what();
    const auto tag_end = what.find("] ");
    why = (tag_end == std::string_view::npos ? what : what.substr(tag_end + 2)).substr(0, 200);
  }
  if (!parsed.is_object()) {
    send({{"error", "not a JSON object on one line (" + why + "): " + std::string(line.substr(0, 200))}});
    return;
  }
  std::vector<std::string> unknown;  // warned of before the query's answer or its error
  const auto warn_of_unknown = [&](const json& id) {
    for (const std::string& field : unknown)
      send({{"id", id}, {"warning", "unknown field, left out"}, {"field", field}});
  };
  try {
    if (parsed.contains("action")) {
      const Action action = read_action(parsed);
      json answer = parsed;
      if (action.name == "query_version") {
        answer["version"] = version();
        answer["git_hash"] = git_hash();
      } else if (action.name != "clear_cache") {  // nothing to clear: no turn keeps evaluations for another
        terminate(action);
      }
      send(answer);
    } else {
      const Query query = read_query(parsed, unknown);
      warn_of_unknown(query.id);
      unknown.clear();
      queue_query(query);
    }
  } catch (const std::exception& e) {
    json answer = json::object();
    if (parsed.contains("id") && parsed["id"].is_string()) answer["id"] = parsed["id"];
    if (answer.contains("id")) warn_of_unknown(answer["id"]);
    answer["error"] = e.what();
    if (const auto* error = dynamic_cast<const QueryError*>(&e); error && !error->field().empty())
      answer["field"] = error->field();
    send(answer);
  }
}

void Engine::queue_query(const Query& query) {
  std::vector<TaskPtr> tasks =
      at_start(query, [&]<typename G>(const typename G::Position& start) { return tasks_of<G>(query, start); });
  {
    const std::lock_guard lock(mutex_);
    // After every queued turn of the same priority or higher, before the rest.
    const auto place = std::ranges::find_if(queued_, [&](const TaskPtr& t) { return t->priority < query.priority; });
    queued_.insert(place, tasks.begin(), tasks.end());
  }
  task_ready_.notify_all();
}

template <typename G>
std::vector<Engine::TaskPtr> Engine::tasks_of(const Query& query, const typename G::Position& start) {
  const NetShelf::Net* net = options_.nets ? options_.nets->net_for(start) : nullptr;
  if (!net)
    throw QueryError(query.initial_fen.empty() ? "variant" : "initialFen",
                     "no net plays " + std::string(G::kTitle) + " on " + G::board_name(start));
  for (const MoveRestriction& restriction : query.avoid_moves) check_restriction<G>(restriction, "avoidMoves", start);
  for (const MoveRestriction& restriction : query.allow_moves) check_restriction<G>(restriction, "allowMoves", start);
  const int last = static_cast<int>(query.moves.size());
  const std::vector<int> turns = query.analyze_turns.empty() ? std::vector<int>{last} : query.analyze_turns;
  for (const int turn : turns)
    if (turn > last)
      throw QueryError("analyzeTurns", "turn " + std::to_string(turn) + " is not in the game: its turns are 0 to " +
                                           std::to_string(last));
  typename G::Game game(start, G::rules_from(net->info.rules));
  std::map<int, typename G::Game> at_turn;
  const std::set<int> wanted(turns.begin(), turns.end());
  for (int i = 0;; ++i) {
    if (wanted.contains(i)) at_turn.emplace(i, game);
    if (i == last) break;
    const std::string& text = query.moves[i];
    const std::string which = "move " + std::to_string(i + 1) + " ('" + text + "')";
    if (game.outcome().is_over()) throw QueryError("moves", which + " comes after the end of the game");
    try {
      game.play(text);
    } catch (const std::invalid_argument& e) {
      throw QueryError("moves", which + ": " + e.what());
    }
  }
  const auto options = player_options<G>(net->path, options_.search_threads, query.settings);
  // The net loads outside the lock (terminate and the workers go on meanwhile); held, it loads once.
  auto evaluator = shared_inference_server<G>(net->path, options.inference);
  {
    const std::lock_guard lock(mutex_);
    evaluators_.emplace(net->path, std::move(evaluator));
  }
  const auto shared_query = std::make_shared<const Query>(query);
  std::vector<TaskPtr> tasks;
  for (const int turn : turns) {
    auto task = std::make_shared<Task>();
    task->id = query.id;
    task->turn = turn;
    task->priority = query.priority;
    task->run = [this, shared_query, options, game = at_turn.at(turn), turn](const std::atomic<bool>& stop) {
      analyse<G>(*shared_query, options, game, turn, stop);
    };
    tasks.push_back(std::move(task));
  }
  return tasks;
}

template <typename G>
void Engine::analyse(const Query& query, const BasicNetworkPlayerOptions<G>& options, const typename G::Game& game,
                     int turn_number, const std::atomic<bool>& stop) {
  const Outcome outcome = game.outcome();
  if (outcome.is_over())
    throw std::invalid_argument("the game is over at this turn: " + to_string(outcome.result) + " (" +
                                to_string(outcome.reason) + ")");
  OwnershipCache<G> ownership(shared_inference_server<G>(options.model, options.inference));
  auto player = make_search_player<G>(options);
  const Turn<G> turn{.pos = game.position(),
                     .for_other_side = reported_for_other_side<G>(query.settings.report_as.value_or(options_.report_as),
                                                                  game.position()),
                     .ownership = ownership,
                     .search = player->search()};
  MoveLimits limits;
  limits.search_moves = moves_allowed<G>(query, turn.pos);
  limits.movetime_ms =
      query.settings.max_time_s > 0 ? std::max(1, static_cast<int>(std::lround(query.settings.max_time_s * 1000))) : 0;
  limits.nodes = query.max_visits > 0 ? query.max_visits : options_.default_visits;  // maxTime caps it, as KataGo's
  limits.stop = &stop;
  player->new_game(0);
  if (query.report_every_s > 0) {
    limits.progress_interval_ms = std::max(1, static_cast<int>(std::lround(query.report_every_s * 1000)));
    player->on_progress([&](const BasicMoveReport<G>& report) {
      send(answer_of<G>(query, turn, turn_number, report, std::nullopt, true));
    });
  }
  player->set_limits(limits);
  const auto chosen = player->choose_move(game);
  send(answer_of<G>(query, turn, turn_number, player->last_report(), chosen, false));
}

void Engine::terminate(const Action& action) {
  auto matches = [&](const TaskPtr& task) {
    return action.name == "terminate_all" ||
           (task->id == action.terminate_id && (!action.turns || std::ranges::count(*action.turns, task->turn) > 0));
  };
  std::vector<TaskPtr> dropped;
  {
    const std::lock_guard lock(mutex_);
    const auto kept = std::stable_partition(queued_.begin(), queued_.end(), [&](const TaskPtr& t) { return !matches(t); });
    dropped.assign(kept, queued_.end());
    queued_.erase(kept, queued_.end());
  }
  // The turns never started answer first, at once; a search stopped after them answers with what it found.
  for (const TaskPtr& task : dropped) send(no_results(task->id, task->turn));
  const std::lock_guard lock(mutex_);
  for (const TaskPtr& task : running_)
    if (matches(task)) task->stop = true;
  if (queued_.empty() && running_.empty()) idle_.notify_all();
}

void Engine::work() {
  for (;;) {
    TaskPtr task;
    {
      std::unique_lock lock(mutex_);
      task_ready_.wait(lock, [&] { return closing_ || !queued_.empty(); });
      if (queued_.empty()) return;
      task = queued_.front();
      queued_.pop_front();
      running_.push_back(task);
    }
    try {
      task->run(task->stop);
    } catch (const std::exception& e) {
      send({{"id", task->id}, {"turnNumber", task->turn}, {"isDuringSearch", false}, {"error", e.what()}});
    }
    const std::lock_guard lock(mutex_);
    std::erase(running_, task);
    if (queued_.empty() && running_.empty()) idle_.notify_all();
  }
}

void Engine::finish() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return queued_.empty() && running_.empty(); });
}

}  // namespace ataxx::analysis
