#include "uai/uai_engine.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <new>
#include <optional>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "nn/network_backend.h"
#include "players/mcts_player.h"
#include "players/network_player.h"
#include "uai/go_command.h"
#include "uai/option_values.h"
#include "uai/search_info.h"
#include "util/text.h"
#include "util/version.h"

namespace ataxx {
namespace {

// An error's text as an info line shows it: what it quotes of a line sent in cut to a readable
// length, at a UTF-8 character's start.
std::string shortened(std::string_view text) {
  constexpr std::size_t kLongest = 300;
  if (text.size() <= kLongest) return std::string(text);
  std::size_t end = kLongest;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "... (" + std::to_string(text.size()) + " bytes)";
}

constexpr int kMaxVisits = 100'000'000;  // the Visits option's largest value (a spin's max; larger ones are clamped)

bool name_is(const std::string& name, const std::string& lower) { return lower_case(name) == lower; }

// The searchmoves that name legal moves; each of the others is said and left out (with none
// left, every move is searched).
template <typename G>
std::vector<std::string> legal_search_moves(const std::vector<std::string>& named, const typename G::Position& root,
                                            const std::function<void(const std::string&)>& say) {
  typename G::MoveList moves;
  root.generate_moves(moves);
  std::vector<std::string> legal;
  for (const std::string& text : named) {
    const bool found = std::any_of(moves.begin(), moves.end(), [&](auto move) { return G::move_text(move, root) == text; });
    if (found)
      legal.push_back(text);
    else
      say("info string searchmoves: '" + shortened(text) + "' is not a legal move here, left out");
  }
  if (!named.empty() && legal.empty()) say("info string searchmoves names no legal move: every move is searched");
  return legal;
}

// The evaluation cache's slots are made at once, and each holds a position's priors once filled
// (about 300 bytes on 7x7): CacheSize takes at most a quarter of the machine's memory.
constexpr std::int64_t kCacheEntryBytes = 320;
std::int64_t machine_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::int64_t{pages} * page : std::int64_t{1} << 32;
}
int largest_cache_size() {
  return static_cast<int>(std::min<std::int64_t>(1 << 26, machine_memory_bytes() / 4 / kCacheEntryBytes));
}
// The variant a FEN of game G is read in: UCI_Variant's where it is one of G's, else G's own.
template <typename G>
std::string_view variant_of(const std::string& uci_variant) {
  return Games::plays<G>(uci_variant) ? std::string_view(uci_variant) : G::kName;
}

// A game's seed: each its own, so that a weakened level or a random player does not repeat its
// games from one uainewgame, or one process, to the next.
std::uint64_t game_seed() { return std::random_device{}(); }

// The combo of UCI_Variant: every game and variant, the first game the default.
std::string variant_option() {
  std::string option = "option name UCI_Variant type combo default " + std::string(Games::First::kName);
  for (const std::string_view name : Games::all_names()) option += " var " + std::string(name);
  return option;
}

// UAI's colours are PGN's (G::kPgnColours): Ataxx's first mover, x, is Black.
template <typename G>
bool mover_is_white(Color mover) {
  return G::kPgnColours[index(mover)] == "White";
}

// The reply the search expects to the move it plays (the PV's second move), for a GUI that
// ponders: "" where the PV does not start with that move or stops there.
template <typename G>
std::string expected_reply(const BasicMoveReport<G>& report, typename G::Move best, typename G::Position after) {
  if (report.pv.size() < 2 || report.pv[0] != best) return "";
  after.make_move(best);
  return G::move_text(report.pv[1], after);
}

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
  {
    std::lock_guard lock(mutex_);
    stopped_through_ = gos_received_;
    stop_ = true;
    ponder_stop_ = true;
  }
  stop_flag_set_.notify_all();
}

void UaiEngine::end_pondering() {
  {
    std::lock_guard lock(mutex_);
    ponderhits_through_ = gos_received_;
    ponder_stop_ = true;
  }
  stop_flag_set_.notify_all();
}

bool UaiEngine::handle(std::string_view line) {
  const auto [command, args] = command_of(line);
  if (command == "stop") {
    stop_searches();
    return true;
  }
  if (command == "ponderhit") {
    end_pondering();
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
    if (command == "isready" && searching_) {
      say("readyok");  // at once mid-search, as UAI asks
      return true;
    }
    if (command == "isready") {  // after the commands before it, but not after a search among them
      queue_.insert(std::ranges::find_if(queue_, [](const Command& c) { return c.go_number > 0; }),
                    {std::string(line), 0});
    } else {
      queue_.push_back({std::string(line), command == "go" ? ++gos_received_ : 0});
    }
  }
  work_ready_.notify_one();
  return true;
}

void UaiEngine::wait_for_stop() {
  std::unique_lock lock(mutex_);
  stop_flag_set_.wait(lock, [&] { return stop_.load(); });
}

void UaiEngine::finish() {
  std::unique_lock lock(mutex_);
  input_ended_ = true;
  closing_ = true;
  if (infinite_running_) stop_ = ponder_stop_ = true;
  work_ready_.notify_all();
  stop_flag_set_.notify_all();
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
    searching_ = command.go_number > 0;
    lock.unlock();
    execute(command);
    lock.lock();
    busy_ = searching_ = false;
    if (queue_.empty()) idle_.notify_all();
  }
}

void UaiEngine::execute(const Command& command) {
  const auto [name, args] = command_of(command.line);
  try {
    if (name == "uai") {
      say("id name ataxx-zero " + std::string(version()));
      say("id author the ataxx-zero developers");
      say(variant_option());
      say("option name Model type string default <empty>");
      say("option name Player type string default alphabeta");
      say("option name Visits type spin default 800 min 1 max " +
          std::to_string(kMaxVisits));  // for go depth; time and nodes rule
                                        // otherwise
      say("option name Threads type spin default 1 min 1 max 64");
      say("option name BatchSize type spin default 64 min 1 max 65536");
      say("option name Device type string default cpu");
      say("option name CacheSize type spin default 0 min 0 max " + std::to_string(largest_cache_size()));
      say("option name Hash type spin default 1024 min 1 max 1048576");
      say("option name MoveOverhead type spin default 50 min 0 max 10000");
      say("option name Ponder type check default false");
      say("option name UCI_ShowWDL type check default false");
      say("option name MultiPV type spin default 1 min 1 max 500");
      say("option name VerboseMoveStats type check default false");
      // lc0's names; FpuValue is the reduction (lc0's FpuStrategy reduction).
      say("option name PolicyTemperature type string default auto");
      say("option name CPuct type string default auto");
      say("option name FpuValue type string default auto");
      say("option name Transpositions type check default false");
      say("option name UCI_LimitStrength type check default false");
      say("option name UCI_Elo type spin default " + std::to_string(kLevelRatings.front().elo) + " min " +
          std::to_string(kLevelRatings.front().elo) + " max " + std::to_string(kLevelRatings.back().elo));
      say("uaiok");
    } else if (name == "isready") {
      say("readyok");
    } else if (name == "uainewgame") {
      new_game();
    } else if (name == "setoption") {
      handle_setoption(args);
    } else if (name == "position") {
      try {
        handle_position(args);
      } catch (const std::exception& e) {
        refused_position_ = shortened(e.what());
        throw;
      }
    } else if (name == "go") {
      std::visit([&](auto& session) { go(session, args, command.go_number); }, session_);
    }  // anything else is ignored, as UAI asks
  } catch (const std::exception& e) {
    say("info string error: " + shortened(e.what()));
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

bool UaiEngine::apply_display_option(const std::string& key, const std::string& value) {
  InfoDisplay& display = options_.display;
  if (key == "uci_showwdl")
    display.show_wdl = read_check("UCI_ShowWDL", value);
  else if (key == "multipv")
    display.multipv = read_spin("MultiPV", value, 1, 500);
  else if (key == "verbosemovestats")
    display.verbose_move_stats = read_check("VerboseMoveStats", value);
  else if (key == "ponder")  // the GUI says whether it will ponder; a `go ponder` is searched either way
    read_check("Ponder", value);
  else
    return false;
  return true;
}

UaiEngine::Options UaiEngine::with_option(Options next, const std::string& key, const std::string& name,
                                          const std::string& value) {
  if (key == "uci_variant") {
    next.variant = lower_case(value);
    if (!Games::has(next.variant))
      throw std::invalid_argument("unknown variant '" + next.variant + "' (" + Games::names() + ")");
  } else if (key == "model")
    next.model = value == "<empty>" ? "" : value;
  else if (key == "player")
    next.player = value;
  else if (key == "visits")
    next.visits = read_spin("Visits", value, 1, kMaxVisits);
  else if (key == "threads")
    next.threads = read_spin("Threads", value, 1, 64);
  else if (key == "batchsize")
    next.batch_size = read_spin("BatchSize", value, 1, 65536);
  else if (key == "device") {
    check_device(value);
    next.device = value;
  } else if (key == "cachesize") {
    if (const auto entries = parse_integer(value); entries && *entries > largest_cache_size())
      throw std::invalid_argument("CacheSize " + value + ": at most " + std::to_string(largest_cache_size()) +
                                  " entries fit in a quarter of this machine's " +
                                  std::to_string(machine_memory_bytes() >> 20) + " MiB");
    next.cache_size = read_spin("CacheSize", value, 0, largest_cache_size());
  } else if (key == "hash")
    next.hash_mb = read_spin("Hash", value, 1, 1 << 20);
  else if (key == "moveoverhead")
    next.move_overhead_ms = read_spin("MoveOverhead", value, 0, 10'000);
  else if (key == "policytemperature")
    next.policy_temperature =
        read_search_parameter("PolicyTemperature", value, kMinPolicyTemperature, kMaxPolicyTemperature);
  else if (key == "cpuct")
    next.c_puct = read_search_parameter("CPuct", value, 0.0, kMaxCPuct);
  else if (key == "fpuvalue")
    next.fpu_reduction = read_search_parameter("FpuValue", value, -kMaxFpuReduction, kMaxFpuReduction);
  else if (key == "transpositions")
    next.transpositions = read_check("Transpositions", value);
  else if (key == "uci_limitstrength")
    next.limit_strength = read_check("UCI_LimitStrength", value);
  else if (key == "uci_elo")
    next.elo = read_spin("UCI_Elo", value, kLevelRatings.front().elo, kLevelRatings.back().elo);
  else
    throw std::invalid_argument("unknown option '" + name + "'");
  return next;
}

void UaiEngine::apply_option(const std::string& name, const std::string& value) {
  const std::string key = lower_case(name);
  if (apply_display_option(key, value)) return;  // display only: the player and its tree are kept
  const Options previous = std::exchange(options_, with_option(options_, key, name, value));
  const std::optional<ModelInfo> previous_info = model_info_;
  try {
    remake_player();
  } catch (const std::bad_alloc&) {
    options_ = previous;
    model_info_ = previous_info;
    throw std::runtime_error("not enough memory for " + name + " " + value + ": the option is unchanged");
  } catch (...) {
    options_ = previous;
    model_info_ = previous_info;
    throw;
  }
  if (key == "uci_variant" && options_.variant != variant_in_play()) {
    new_game();
    say("info string UCI_Variant " + options_.variant + ": the position is its start");
  }
}

void UaiEngine::remake_player() {
  // Made now, so that a bad model or spec is reported at once: for the game at hand, or for the
  // model's own (it plays once a position of its game comes).
  model_info_ = options_.model.empty() ? std::nullopt : std::optional(read_model_info(options_.model));
  std::visit(
      [&](auto& session) {
        using G = typename std::decay_t<decltype(session)>::GameType;
        session.player.reset();
        const std::string game = model_info_ ? model_info_->game : std::string(G::kName);
        with_game(game, [&]<typename ModelGame>() { make_engine_player<ModelGame>(options_.model); });
      },
      session_);
}

std::string UaiEngine::variant_in_play() const {
  return std::visit(
      [](const auto& session) {
        using G = typename std::decay_t<decltype(session)>::GameType;
        const std::string variant = G::pgn_variant(session.game.start());
        return variant.empty() ? std::string(G::kName) : variant;
      },
      session_);
}

void UaiEngine::new_game() {
  with_game(options_.variant, [&]<typename G>() {
    set_game<G>(typename G::Game(start_of_variant<G>(options_.variant)));
  });
  std::visit(
      [](auto& session) {
        if (session.player) session.player->new_game(game_seed());
      },
      session_);
}

template <typename G>
void UaiEngine::set_game(typename G::Game game) {
  refused_position_.clear();
  if (auto* session = std::get_if<Session<G>>(&session_)) {
    session->game = std::move(game);
  } else {
    session_ = Session<G>{std::move(game), nullptr, ""};
  }
}

void UaiEngine::use_nets(NetShelf nets) {
  wait_until_idle();
  nets_ = std::move(nets);
}

template <typename P>
std::string UaiEngine::model_for(const P& pos) const {
  if (model_info_) return net_plays(*model_info_, pos) ? options_.model : "";
  const NetShelf::Net* net = nets_.net_for(pos);
  return net ? net->path : "";
}

template <typename G>
std::unique_ptr<BasicPlayer<G>> UaiEngine::make_engine_player(const std::string& model) const {
  if (model.empty()) return make_player<G>(options_.player);
  BasicNetworkPlayerOptions<G> network;
  network.model = model;
  network.search.visits = options_.visits;
  network.search.max_tree_bytes = static_cast<std::size_t>(options_.hash_mb) << 20;
  if (options_.policy_temperature) network.search.policy_temperature = *options_.policy_temperature;
  if (options_.c_puct) {
    network.search.c_puct = *options_.c_puct;
    network.c_puct_by_board = false;
  }
  if (options_.fpu_reduction) network.search.fpu_reduction = *options_.fpu_reduction;
  network.search.transpositions = options_.transpositions;
  network.inference.device = options_.device;
  network.inference.bf16 = bf16_by_default(options_.device);
  network.inference.int8 = int8_by_default(options_.device);
  network.inference.max_batch = options_.batch_size;
  network.inference.cache_entries = options_.cache_size;
  // Threads search the tree at once, each with its own batches: on the CPU each runs them on its
  // own core (no server thread); on a GPU a server thread each takes them to the device.
  network.use_search_threads(options_.threads);
  const bool cpu = options_.device == "cpu";
  network.inference.threads = cpu ? 0 : options_.threads;
  if (options_.limit_strength) network.skill = skill_for_elo(options_.elo);
  return make_network_player<G>(network);
}

void UaiEngine::handle_position(std::string_view args) {
  const auto tokens = split_words(args);
  if (tokens.empty()) throw std::invalid_argument("position needs startpos or fen");
  std::size_t i = 1;
  std::string fen;
  if (tokens[0] == "fen") {
    for (; i < tokens.size() && tokens[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + tokens[i];
    if (fen.empty()) throw std::invalid_argument("position fen: no FEN given");
  } else if (tokens[0] != "startpos") {
    throw std::invalid_argument("position needs startpos or fen, not '" + tokens[0] + "'");
  }
  if (i < tokens.size() && tokens[i] != "moves")
    throw std::invalid_argument("position: '" + tokens[i] + "' where moves or the end of the line was expected");
  // Only once every move is played: a bad move sets nothing.
  auto play_moves = [&](auto game) {
    if (i < tokens.size() && tokens[i] == "moves")
      for (++i; i < tokens.size(); ++i) game.play(tokens[i]);
    return game;
  };
  // The variant's start, or the FEN in the game it looks like (in UCI_Variant's variant of it).
  auto set_position = [&]<typename G>() {
    const auto start = fen.empty() ? start_of_variant<G>(options_.variant)
                                   : G::from_fen(fen, variant_of<G>(options_.variant));
    set_game<G>(play_moves(typename G::Game(start)));
  };
  if (fen.empty())
    with_game(options_.variant, set_position);
  else
    Games::with_game_of_fen(fen, set_position);
}

template <typename G>
void UaiEngine::ready_player(Session<G>& session) {
  const auto& root = session.game.position();
  const std::string model = model_for(root);
  if (session.player && session.model == model) return;
  if (model.empty() && model_info_) {
    const bool same_game = model_info_->game == G::kName;
    std::string other = std::string(G::kName);
    if (G::kHasBoards && same_game) other = G::board_name(root);
    say("info string model '" + options_.model + "' plays " + model_info_->game +
        (same_game ? " on " + model_info_->boards.names() : "") + ", not " + other + ": Player " + options_.player +
        " plays this " + (same_game ? "board" : "game"));
  } else if (model.empty() && !nets_.sources().empty()) {
    std::string what = std::string(G::kName);
    if (G::kHasBoards) what += " on " + G::board_name(root);
    say("info string none of the nets (" + nets_.sources() + ") plays " + what + ": Player " + options_.player +
        " plays it");
  }
  (session.player = make_engine_player<G>(model))->new_game(game_seed());
  session.model = model;
  if (model.empty()) return;
  say("info string searching with " + model);
  if (options_.device == "cpu") say("info string computing in " + cpu_computation_by_default());
}

template <typename G>
void UaiEngine::go(Session<G>& session, std::string_view args, int go_number) {
  GoLine go;
  try {
    go = read_go(args);
  } catch (const std::exception& e) {
    // A GUI waits for the bestmove of every go: a malformed one is answered too, at once, by the
    // least search there is (one node), since its time is not known.
    say("info string error: " + shortened(e.what()) + "; answering at once");
    go.limits.nodes = 1;
  }
  if (!go.skipped.empty()) {
    std::string words;
    for (const std::string& word : go.skipped) words += (words.empty() ? "'" : " '") + word + "'";
    say("info string go: skipped " + shortened(words) + ", not go's words");
  }
  MoveLimits& limits = go.limits;
  // The player plans its time from the clocks (players/time_manager.h); without any limit its
  // own budget applies.
  const auto& root = session.game.position();
  limits.clock = clock_of(go, mover_is_white<G>(root.side_to_move()), options_.move_overhead_ms);

  typename G::MoveList moves;
  root.generate_moves(moves);
  // After a refused position the GUI's position is not the engine's: a move of the one before
  // would not be of its game.
  if (!refused_position_.empty())
    say("info string error: no position to search: the last position command was refused (" + refused_position_ + ")");
  const bool nothing_to_search = !refused_position_.empty() || session.game.outcome().is_over() || moves.empty() ||
                                 (moves.size() == 1 && moves[0].is_pass());
  if (!nothing_to_search)
    limits.search_moves = legal_search_moves<G>(go.search_moves, root, [this](const std::string& line) { say(line); });
  limits.multi_pv = options_.display.multipv;
  {
    std::lock_guard lock(mutex_);
    stop_ = stopped_through_ >= go_number || ((limits.infinite || go.ponder) && input_ended_);
    ponder_stop_ = stop_ || ponderhits_through_ >= go_number;
    infinite_running_ = limits.infinite || go.ponder;
  }
  if (nothing_to_search) {
    const Outcome outcome = session.game.outcome();
    if (refused_position_.empty() && outcome.is_over()) {
      const std::string winner = outcome.result == Result::kDraw
                                     ? "a draw"
                                     : std::string(G::kSideNames[outcome.result == Result::kXWins ? 0 : 1]) + " wins";
      say("info string the game is over (" + to_string(outcome.reason) + "): " + winner);
    }
    // Still answered as UAI asks: a go ponder at its ponderhit or stop, a go infinite at its stop.
    if (go.ponder) {
      std::unique_lock lock(mutex_);
      stop_flag_set_.wait(lock, [&] { return ponder_stop_.load(); });
    }
    if (limits.infinite) wait_for_stop();
    {
      std::lock_guard lock(mutex_);
      infinite_running_ = false;
    }
    say("bestmove 0000");
    return;
  }
  auto& player = session.player;
  typename G::Move best = moves[0];
  // The search the last interim report described (alpha-beta's is its last depth's): not said twice.
  std::optional<std::pair<std::uint64_t, std::vector<typename G::Move>>> said;
  try {
    ready_player(session);
    player->on_progress([this, &root, &said, display = options_.display](const BasicMoveReport<G>& r) {
      say(info_lines<G>(r, root, display));
      said.emplace(r.nodes, r.pv);
    });
    if (go.ponder) ponder(*player, session.game, limits);
    limits.stop = &stop_;
    player->set_limits(limits);
    best = player->choose_move(session.game);
  } catch (const std::bad_alloc&) {
    say("info string error: out of memory for this search (Hash " + std::to_string(options_.hash_mb) +
        " MiB, CacheSize " + std::to_string(options_.cache_size) + "): lower them; playing " +
        G::move_text(best, root));
  } catch (const std::exception& e) {
    say("info string error: " + shortened(e.what()));
  }
  // A search may end on its own (alpha-beta at its last depth, a full tree), but UAI's `go
  // infinite` answers only when stopped.
  if (limits.infinite) wait_for_stop();
  {
    std::lock_guard lock(mutex_);
    infinite_running_ = false;
  }
  std::string reply;
  if (player) {
    const BasicMoveReport<G> report = player->last_report();
    if (options_.display.verbose_move_stats && !report.candidates.empty()) say(verbose_move_stats<G>(report, root));
    const bool searched = report.nodes > 0 || !report.pv.empty();  // a player that does not search has nothing to say
    if (searched && said != std::pair(report.nodes, report.pv)) say(info_lines<G>(report, root, options_.display));
    reply = expected_reply<G>(report, best, root);
  }
  say("bestmove " + G::move_text(best, root) + (reply.empty() ? "" : " ponder " + reply));
}

template <typename G>
void UaiEngine::ponder(BasicPlayer<G>& player, const typename G::Game& game, MoveLimits limits) {
  limits.stop = &ponder_stop_;
  player.set_limits(limits);
  player.ponder(game);  // returns once ponder_stop_ is set, or at once where the player does not search
  std::unique_lock lock(mutex_);
  stop_flag_set_.wait(lock, [&] { return ponder_stop_.load(); });
  infinite_running_ = limits.infinite;
}

}  // namespace ataxx
