// The template definitions of selfplay/selfplay_worker.h: included by selfplay_worker.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "selfplay/selfplay_worker.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>

#include "mcts/search.h"
#include "selfplay/surprise_weighting.h"
#include "util/parallel.h"

namespace ataxx {
namespace {

template <typename G>
struct Slot {
  std::unique_ptr<BasicSearch<G>> search;
  std::unique_ptr<typename G::Game> game;
  std::vector<BasicTrainingSample<G>> samples;
  std::vector<SampleSurprise> surprises;  // one a sample (the value's filled in at the game's end)
  // For the value surprise: each move's search value, and each sample's move and network value
  // (all from x's view; none where the network did not evaluate the root).
  std::vector<Wdl> search_values;
  std::vector<std::size_t> sample_moves;
  std::vector<std::optional<Wdl>> sample_network_values;
  bool active = false;
  bool no_resign = false;
  bool full_search = false;
  int visits_before = 0;       // at the root when this move's search began (kept from the last move)
  int lowest_value_side = -1;  // the side (0 x, 1 o) that first fell below the resign threshold
};

// A value from the side to move's view turned to x's.
Wdl from_x_view(const Wdl& value, Color side_to_move) { return side_to_move == Color::kX ? value : value.flipped(); }

template <typename G>
const SelfPlayStart<G>& draw_start(const std::vector<SelfPlayStart<G>>& starts, double uniform) {
  for (const SelfPlayStart<G>& s : starts) {
    if (uniform < s.share) return s;
    uniform -= s.share;
  }
  return starts.back();
}

template <typename G>
BasicSearchParams<G> search_params_of(const RunConfig::SelfPlay& sp, const typename G::Rules& rules) {
  BasicSearchParams<G> params;
  params.visits = sp.visits;
  params.leaves_per_round = sp.leaves_per_round;
  params.c_puct = static_cast<float>(sp.c_puct);
  params.dirichlet_alpha = static_cast<float>(sp.dirichlet_alpha);
  params.forced_playouts_k = static_cast<float>(sp.forced_playouts_k);
  params.policy_temperature = static_cast<float>(sp.policy_temperature);
  params.lcb_stdevs = static_cast<float>(sp.lcb_stdevs);
  params.rules = rules;
  return params;
}

// One worker's games in progress, a tree each, and the chunk they fill. Each tree goes on its
// own: a tree whose search ends starts its next one at once, so fast and full searches of
// different games share every batch and no finished tree waits for the others.
template <typename G>
class SelfPlayLoop {
 public:
  using Position = typename G::Position;
  using Emit = std::function<void(BasicSelfPlayBatch<G>&&)>;
  using GameWatcher = typename BasicSelfPlayWorker<G>::GameWatcher;

  SelfPlayLoop(const RunConfig& config, const std::vector<SelfPlayStart<G>>& starts, std::uint64_t seed,
               BasicEvaluator<G>& evaluator, std::atomic<int>& games_left, const std::function<bool()>& stopped,
               const Emit& emit, const GameWatcher& watcher)
      : sp_(config.selfplay),
        rules_(G::rules_from(config.rules)),
        starts_(starts),
        evaluator_(evaluator),
        games_left_(games_left),
        stopped_(stopped),
        emit_(emit),
        watcher_(watcher),
        rng_(seed),
        slots_(sp_.concurrent_games) {
    const BasicSearchParams<G> params = search_params_of<G>(sp_, rules_);
    for (Slot<G>& slot : slots_) slot.search = std::make_unique<BasicSearch<G>>(params, rng_());
  }

  SelfPlayStats run() {
    for (Slot<G>& slot : slots_) {
      start_game(slot);
      if (slot.active) begin_move(slot);
    }
    std::vector<BasicSearch<G>*> active;
    std::vector<BasicEvalRequest<G>> requests;
    while (!stopped_()) {
      active.clear();
      for (Slot<G>& slot : slots_)
        if (slot.active) active.push_back(slot.search.get());
      if (active.empty()) break;
      search_round<G>(active, evaluator_, requests);
      for (Slot<G>& slot : slots_) {
        if (!slot.active || !slot.search->done()) continue;
        finish_move(slot);
        if (slot.active) begin_move(slot);
      }
    }
    if (pending_.games > 0) emit_(std::move(pending_));
    return stats_;
  }

 private:
  void start_game(Slot<G>& slot) {
    if (stopped_() || games_left_.fetch_sub(1) <= 0) {
      slot.active = false;
      return;
    }
    const SelfPlayStart<G>& plan = draw_start(starts_, uniform_(rng_));
    const bool from_suite = !plan.openings.empty() && uniform_(rng_) < sp_.opening_share;
    const Position start = from_suite ? plan.openings[rng_() % plan.openings.size()] : plan.start;
    slot.game = std::make_unique<typename G::Game>(start, rules_);
    slot.search->set_root(start);
    slot.samples.clear();
    slot.surprises.clear();
    slot.search_values.clear();
    slot.sample_moves.clear();
    slot.sample_network_values.clear();
    slot.no_resign = uniform_(rng_) < sp_.no_resign_share;
    slot.lowest_value_side = -1;
    slot.active = true;
  }

  void begin_move(Slot<G>& slot) {
    slot.full_search = uniform_(rng_) < sp_.full_search_share;
    // A full search adds all its playouts after the root noise, whatever the reused tree holds.
    slot.visits_before = slot.search->root_visits();
    slot.search->set_visits(slot.full_search ? slot.visits_before + sp_.visits : sp_.fast_visits);
    slot.search->set_dirichlet_weight(slot.full_search ? static_cast<float>(sp_.dirichlet_weight) : 0.0f);
    slot.search->begin();
  }

  // The search of this move is done: record it, resign or play, and go on with this game or the next.
  void finish_move(Slot<G>& slot) {
    const BasicSearchResult<G> result = slot.search->result();
    stats_.simulations += result.total_visits - slot.visits_before;
    const Position& pos = slot.game->position();
    const Color mover = pos.side_to_move();
    if (slot.full_search || writes_fast_searches()) {
      slot.samples.push_back(policy_sample<G>(pos, result));
      slot.samples.back().model = evaluator_.model_name();  // the model of the search's last batch
      slot.surprises.push_back(
          {.policy = policy_surprise(result.policy_target, result.network_priors), .full_search = slot.full_search});
      slot.sample_moves.push_back(slot.search_values.size());
      slot.sample_network_values.push_back(
          result.root_network_value ? std::optional(from_x_view(*result.root_network_value, mover)) : std::nullopt);
    }
    const float v = result.value;
    slot.search_values.push_back(
        from_x_view(result.root_search_value.value_or(Wdl{.win = (1 + v) / 2, .draw = 0, .loss = (1 - v) / 2}), mover));
    if (sp_.resign_threshold > -1.0 && result.value < sp_.resign_threshold) {
      if (slot.lowest_value_side < 0) slot.lowest_value_side = index(pos.side_to_move());
      if (!slot.no_resign) {
        finish_game(slot, win_for(~pos.side_to_move()), true);
        return;
      }
    }
    const bool explore = static_cast<int>(slot.game->moves().size()) < sp_.temperature_plies;
    const typename G::Move move = choose_move(result, explore ? static_cast<float>(sp_.temperature) : 0.0f, rng_);
    slot.game->play(move);
    slot.search->advance(move);
    if (watcher_ && &slot == &slots_.front()) watcher_(*slot.game);
    const Outcome outcome = slot.game->outcome();
    if (outcome.is_over()) finish_game(slot, outcome.result, false);
  }

  void finish_game(Slot<G>& slot, Result result, bool resigned) {
    const Position& final_position = slot.game->position();
    const std::vector<double> values = value_surprises(slot, result);
    for (std::size_t i = 0; i < values.size(); ++i) slot.surprises[i].value = values[i];
    const std::vector<int> copies = surprise_copies(
        slot.surprises, {.policy = sp_.policy_surprise_weight, .value = sp_.value_surprise_weight}, rng_);
    const std::size_t first_written = pending_.samples.size();
    for (std::size_t i = 0; i < slot.samples.size(); ++i) {
      BasicTrainingSample<G>& s = slot.samples[i];
      s.result = static_cast<std::int8_t>(result_for(s.position.side_to_move(), result));
      // A resigned game's final board is not known: the board at resignation is not it.
      s.final_board_known = !resigned;
      if (!resigned) {
        s.final_x = G::men(final_position, Color::kX);
        s.final_o = G::men(final_position, Color::kO);
      }
      for (int copy = 1; copy < copies[i]; ++copy) pending_.samples.push_back(s);
      if (copies[i] > 0) pending_.samples.push_back(std::move(s));
    }
    if (pending_.samples.size() > first_written) pending_.samples[first_written].starts_game = true;
    count_game(slot, result, resigned);
    if (pending_.games >= sp_.games_per_chunk) emit_(std::exchange(pending_, {}));
    start_game(slot);
  }

  // KataGo's: fast searches' samples kept, to be written where their policy surprise is far above
  // the game's full searches'.
  bool writes_fast_searches() const { return sp_.surprising_fast_searches && sp_.policy_surprise_weight > 0.0; }

  // Each sample's value surprise: the divergence of KataGo's smoothed value target at its move
  // from the network's value of its root (0 where the network did not evaluate the root).
  std::vector<double> value_surprises(const Slot<G>& slot, Result result) const {
    std::vector<double> surprises(slot.samples.size(), 0.0);
    if (sp_.value_surprise_weight <= 0.0) return surprises;
    const double now_weight = 1.0 / (1.0 + 0.016 * G::cells(slot.game->position()));
    const std::vector<Wdl> targets =
        smoothed_value_targets(slot.search_values, Wdl::of_result(result_for(Color::kX, result)), now_weight);
    for (std::size_t i = 0; i < surprises.size(); ++i)
      if (const std::optional<Wdl>& network = slot.sample_network_values[i])
        surprises[i] = value_surprise(targets[slot.sample_moves[i]], *network);
    return surprises;
  }

  void count_game(const Slot<G>& slot, Result result, bool resigned) {
    const int plies = static_cast<int>(slot.game->moves().size());
    const bool draw = result == Result::kDraw;
    ++pending_.games;
    pending_.plies += plies;
    pending_.draws += draw;
    ++stats_.games;
    stats_.plies += plies;
    stats_.draws += draw;
    stats_.resigned += resigned;
    if (slot.no_resign) {
      ++stats_.no_resign_games;
      if (slot.lowest_value_side >= 0) {
        ++stats_.would_resign;
        stats_.false_resignations += result_for(static_cast<Color>(slot.lowest_value_side), result) >= 0;
      }
    }
  }

  const RunConfig::SelfPlay& sp_;
  const typename G::Rules rules_;
  const std::vector<SelfPlayStart<G>>& starts_;
  BasicEvaluator<G>& evaluator_;
  std::atomic<int>& games_left_;
  const std::function<bool()>& stopped_;
  const Emit& emit_;
  const GameWatcher& watcher_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  std::vector<Slot<G>> slots_;
  SelfPlayStats stats_;
  BasicSelfPlayBatch<G> pending_;
};

}  // namespace

template <typename G>
BasicTrainingSample<G> policy_sample(const typename G::Position& pos, const BasicSearchResult<G>& result) {
  BasicTrainingSample<G> sample;
  sample.position = pos;
  sample.root_value = result.value;
  const int most = result.policy_target.empty() ? 0 : *std::max_element(result.policy_target.begin(), result.policy_target.end());
  const double scale = most > kMaxRecordedVisits ? static_cast<double>(kMaxRecordedVisits) / most : 1.0;
  for (std::size_t i = 0; i < result.moves.size(); ++i) {
    if (result.policy_target[i] <= 0) continue;
    const long scaled = std::max(1L, std::lround(result.policy_target[i] * scale));
    sample.visits.emplace_back(result.moves[i], static_cast<std::uint16_t>(scaled));
  }
  return sample;
}

template <typename G>
BasicSelfPlayWorker<G>::BasicSelfPlayWorker(const RunConfig& config, std::vector<SelfPlayStart<G>> starts,
                                            std::uint64_t seed)
    : config_(config), starts_(std::move(starts)), seed_(seed) {
  if (starts_.empty()) throw std::invalid_argument("self-play: no start positions to play from");
  const typename G::Rules rules = G::rules_from(config_.rules);
  for (const SelfPlayStart<G>& s : starts_)
    for (const auto& opening : s.openings)
      if (opening.outcome(rules).is_over())
        throw std::invalid_argument("self-play: opening '" + opening.fen() + "' of " + s.name +
                                    " is a finished game under the run's rules");
}

template <typename G>
SelfPlayStats BasicSelfPlayWorker<G>::run(BasicEvaluator<G>& evaluator, std::atomic<int>& games_left,
                                          const std::function<bool()>& stopped,
                                          const std::function<void(BasicSelfPlayBatch<G>&&)>& emit) {
  return SelfPlayLoop<G>(config_, starts_, seed_, evaluator, games_left, stopped, emit, watcher_).run();
}

template <typename G>
SelfPlayStats play_selfplay_games(const RunConfig& config, const std::vector<SelfPlayStart<G>>& starts,
                                  std::uint64_t seed, BasicEvaluator<G>& evaluator, int games,
                                  const std::atomic<bool>& stop,
                                  const std::function<void(BasicSelfPlayBatch<G>&&)>& emit,
                                  const typename BasicSelfPlayWorker<G>::GameWatcher& watch) {
  std::atomic<int> games_left{games};
  std::atomic<bool> failed{false};
  std::mutex mutex;  // guards total
  SelfPlayStats total;
  auto stopped = [&] { return stop.load() || failed.load(); };
  run_in_parallel(
      config.selfplay.threads,
      [&](int w) {
        try {
          BasicSelfPlayWorker<G> worker(config, starts, seed + w);
          if (w == 0) worker.watch_games(watch);
          const SelfPlayStats stats = worker.run(evaluator, games_left, stopped, emit);
          std::lock_guard lock(mutex);
          total.add(stats);
        } catch (const std::exception& e) {
          throw std::runtime_error("self-play worker " + std::to_string(w) + ": " + e.what());
        }
      },
      [&] { failed = true; });
  return total;
}

}  // namespace ataxx
