// The template definitions of players/alphabeta.h: included by alphabeta.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "players/alphabeta.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "players/time_manager.h"

namespace ataxx {
namespace {

constexpr int kWin = 10'000;            // a game won at the root; one won n plies below it scores kWin - n
constexpr int kDecided = kWin - 1'000;  // from here on a score is a game's end, not an evaluation
constexpr int kInfinity = 30'000;

template <typename P>
int terminal_score(const P& pos, Result result, int ply) {
  return result_for(pos.side_to_move(), result) * (kWin - ply);
}

// The table keeps a game's end as its distance from the node, not from the root, so that the
// score holds wherever the node recurs.
int to_table(int score, int ply) { return score >= kDecided ? score + ply : score <= -kDecided ? score - ply : score; }
int from_table(int score, int ply) {
  return score >= kDecided ? score - ply : score <= -kDecided ? score + ply : score;
}

// A decided score as UCI's `score mate N`: the mover's moves to its win, negative to its loss.
std::optional<int> mate_of(int score) {
  if (std::abs(score) < kDecided) return std::nullopt;
  const int plies = kWin - std::abs(score);
  return mate_in_moves(score > 0 ? plies : -plies);
}

template <typename Candidate, typename Move>
bool has_line(const std::vector<Candidate>& lines, Move move) {
  return std::any_of(lines.begin(), lines.end(), [&](const Candidate& c) { return c.move == move; });
}

}  // namespace

template <typename G>
BasicAlphaBetaPlayer<G>::BasicAlphaBetaPlayer(Limits limits, int table_bits)
    : own_limits_(limits), max_table_size_(std::size_t{1} << table_bits) {}

template <typename G>
void BasicAlphaBetaPlayer<G>::new_game(std::uint64_t seed) {
  rng_.seed(seed);
  table_.clear();  // made again by the game's first search: a player that never searches costs nothing
}

template <typename G>
void BasicAlphaBetaPlayer<G>::size_table() {
  // Sized by the nodes searched so far (an iteration searches several times more than all before
  // it), up to the most it may take: short searches and players made for a few moves do not pay for
  // a table they never fill.
  constexpr std::size_t kSmallest = 1 << 12;
  const std::size_t wanted = std::min(max_table_size_, std::max(kSmallest, std::bit_ceil(16 * nodes_)));
  if (table_.size() >= wanted) return;
  std::vector<Entry> bigger(wanted);
  for (const Entry& entry : table_)
    if (entry.depth >= 0) bigger[entry.key & (wanted - 1)] = entry;
  table_.swap(bigger);
}

template <typename G>
bool BasicAlphaBetaPlayer<G>::out_of_time() {
  if ((nodes_ & 1023) != 0) return aborted_;  // the clock and the stop flag every 1024 nodes
  const auto* stop = this->limits_.stop;
  if (has_deadline_ && std::chrono::steady_clock::now() >= deadline_) aborted_ = true;
  if (stop && stop->load(std::memory_order_relaxed)) aborted_ = true;
  return aborted_;
}

template <typename G>
int BasicAlphaBetaPlayer<G>::ordered_moves(const Position& pos, Move first, MoveArray& out, bool root) {
  typename G::MoveList moves;
  if (root)
    moves = root_moves_;
  else
    pos.generate_moves(moves);
  std::array<std::pair<int, Move>, G::kMaxMoves> scored;
  const int n = moves.size();
  for (int i = 0; i < n; ++i) {
    const Move m = moves[i];
    scored[i] = {m == first ? 100 : G::Play::order_gain(pos, m), m};
  }
  if (root) std::shuffle(scored.begin(), scored.begin() + n, rng_);
  std::stable_sort(scored.begin(), scored.begin() + n, [](const auto& a, const auto& b) { return a.first > b.first; });
  for (int i = 0; i < n; ++i) out[i] = scored[i].second;
  return n;
}

template <typename G>
void BasicAlphaBetaPlayer<G>::extend_line(int ply, Move move) {
  lines_[ply][0] = move;
  std::copy_n(lines_[ply + 1].begin(), line_lengths_[ply + 1], lines_[ply].begin() + 1);
  line_lengths_[ply] = line_lengths_[ply + 1] + 1;
}

template <typename G>
int BasicAlphaBetaPlayer<G>::negamax(const Position& pos, int depth, int alpha, int beta, int ply) {
  // The node limit at every node, leaves too: `go nodes 30` searches 30.
  if (this->limits_.nodes > 0 && nodes_ >= static_cast<std::uint64_t>(this->limits_.nodes)) aborted_ = true;
  if (aborted_) return 0;
  ++nodes_;
  line_lengths_[ply] = 0;
  const Outcome outcome = pos.outcome(rules_);
  if (outcome.is_over()) return terminal_score(pos, outcome.result, ply);
  if (depth == 0) return G::Play::score(pos);
  if (out_of_time()) return 0;

  const std::uint64_t key = G::Play::table_key(pos);
  Entry& entry = table_[key & (table_.size() - 1)];
  const bool hit = entry.key == key;
  if (hit && entry.depth >= depth && ply > 0) {
    const int score = from_table(entry.score, ply);
    if (entry.bound == Bound::kExact) return score;
    if (entry.bound == Bound::kLower && score >= beta) return score;
    if (entry.bound == Bound::kUpper && score <= alpha) return score;
  }

  MoveArray moves;
  const int n = ordered_moves(pos, hit ? entry.move : Move::pass(), moves, ply == 0);
  const int original_alpha = alpha;
  int best_score = -kInfinity;
  Move best_move = moves[0];
  for (int i = 0; i < n; ++i) {
    Position child = pos;
    child.make_move(moves[i]);
    const int score = -negamax(child, depth - 1, -beta, -alpha, ply + 1);
    if (aborted_) return 0;
    if (score > best_score) {
      best_score = score;
      best_move = moves[i];
    }
    if (score > alpha) extend_line(ply, moves[i]);
    alpha = std::max(alpha, score);
    if (alpha >= beta) break;
  }
  // The root of a line other than the best has some of its moves left out: its score is not the position's.
  if (ply == 0 && searching_other_line_) return best_score;
  const Bound bound = best_score <= original_alpha ? Bound::kUpper : best_score >= beta ? Bound::kLower : Bound::kExact;
  entry = {key, static_cast<std::int16_t>(to_table(best_score, ply)), static_cast<std::int8_t>(depth), bound,
           best_move};
  return best_score;
}

template <typename G>
typename G::Move BasicAlphaBetaPlayer<G>::choose_move(const Game& game) {
  const Position& pos = game.position();
  rules_ = game.rules();
  root_moves_ = moves_to_search<G>(game, this->limits_);
  if (root_moves_.size() == 1) return root_moves_[0];

  const MoveLimits& outside = this->limits_;
  const int outside_time_ms = move_time_ms<G>(pos, outside);
  const int time_ms = outside_time_ms > 0 ? outside_time_ms : own_limits_.time_ms;
  // An outside limit other than depth (time, nodes, `go infinite`, `go mate`) lifts the player's own
  // depth limit. A win in N moves is at most 2N - 1 plies away.
  const bool outside_limit = outside_time_ms > 0 || outside.nodes > 0 || outside.infinite || outside.mate > 0;
  const int mate_depth = outside.mate > 0 ? 2 * std::min(outside.mate, kMaxPly) - 1 : kMaxPly;
  const int max_depth = std::min({kMaxPly, mate_depth,
                                  outside.depth > 0 ? outside.depth
                                  : outside_limit   ? kMaxPly
                                                    : own_limits_.depth});
  const auto start = std::chrono::steady_clock::now();
  has_deadline_ = time_ms > 0;
  deadline_ = start + std::chrono::milliseconds(time_ms);
  aborted_ = false;
  nodes_ = 0;
  Move best = root_moves_[0];
  report_ = {};
  report_.pv = {best};
  // MultiPV: at each depth the best line, then the best of the moves not yet given a line, and so on.
  const typename G::MoveList every_move = root_moves_;
  const int lines = std::clamp(outside.multi_pv, 1, static_cast<int>(every_move.size()));
  for (int depth = 1; depth <= max_depth && !aborted_; ++depth) {
    size_table();
    std::vector<Candidate> found;
    for (int k = 0; k < lines; ++k) {
      root_moves_.clear();
      for (const Move m : every_move)
        if (!has_line(found, m)) root_moves_.push_back(m);
      searching_other_line_ = k > 0;
      const int score = negamax(pos, depth, -kInfinity, kInfinity, 0);
      if (aborted_) break;
      found.push_back(line_found(depth, score));
      if (k > 0) continue;
      best = found[0].move;
      report_.depth = depth;
      report_.score_cp = found[0].score_cp;
      report_.mate = found[0].mate;
      report_.pv = found[0].pv;
    }
    // Lines this depth did not reach before time ran out keep the depth before's.
    if (lines > 1 && !found.empty()) report_.candidates = with_earlier_lines(std::move(found), lines);
    if (this->progress_ && !aborted_) {  // one report per completed iteration
      report_.nodes = nodes_;
      report_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      this->progress_(report_);
    }
    if (outside.mate > 0 && report_.mate.value_or(0) > 0) break;  // the first win found is the shortest
  }
  report_.nodes = nodes_;
  report_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return best;
}

template <typename G>
auto BasicAlphaBetaPlayer<G>::line_found(int depth, int score) const -> Candidate {
  Candidate line;
  line.pv.assign(lines_[0].begin(), lines_[0].begin() + line_lengths_[0]);
  line.move = line.pv.front();
  line.depth = depth;
  line.score_cp = score * G::Play::kCentipawnsAPoint;
  line.mate = mate_of(score);
  return line;
}

template <typename G>
auto BasicAlphaBetaPlayer<G>::with_earlier_lines(std::vector<Candidate> found, int lines) const
    -> std::vector<Candidate> {
  for (const Candidate& earlier : report_.candidates) {
    if (std::ssize(found) >= lines) break;
    if (!has_line(found, earlier.move)) found.push_back(earlier);
  }
  return found;
}

}  // namespace ataxx
