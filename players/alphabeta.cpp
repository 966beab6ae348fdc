#include "players/alphabeta.h"

#include <algorithm>
#include <stdexcept>

#include "mcts/simple_evaluators.h"
#include "players/time_manager.h"

namespace ataxx {
namespace {

constexpr int kWin = 10'000;
constexpr int kInfinity = 30'000;

int terminal_score(const Position& pos, Result result, int ply) {
  return result_for(pos.side_to_move(), result) * (kWin - ply);
}

int material(const Position& pos) {
  const Color us = pos.side_to_move();
  return popcount(pos.pieces(us)) - popcount(pos.pieces(~us));
}

}  // namespace

AlphaBetaPlayer::AlphaBetaPlayer(Limits limits, int table_bits)
    : own_limits_(limits), table_(std::size_t{1} << table_bits) {}

void AlphaBetaPlayer::new_game(std::uint64_t seed) {
  rng_.seed(seed);
  std::fill(table_.begin(), table_.end(), Entry{});
}

bool AlphaBetaPlayer::out_of_time() {
  if ((nodes_ & 1023) != 0) return aborted_;
  const auto* stop = limits_.stop;
  if (has_deadline_ && std::chrono::steady_clock::now() >= deadline_) aborted_ = true;
  if (stop && stop->load(std::memory_order_relaxed)) aborted_ = true;
  if (limits_.nodes > 0 && nodes_ >= static_cast<std::uint64_t>(limits_.nodes)) aborted_ = true;
  return aborted_;
}

int AlphaBetaPlayer::ordered_moves(const Position& pos, Move first, std::array<Move, kMaxMoves>& out, bool root) {
  MoveList moves;
  if (root)
    moves = root_moves_;
  else
    pos.generate_moves(moves);
  std::array<std::pair<int, Move>, kMaxMoves> scored;
  const int n = moves.size();
  for (int i = 0; i < n; ++i) {
    const Move m = moves[i];
    scored[i] = {m == first ? 100 : move_gain(pos, m), m};
  }
  if (root) std::shuffle(scored.begin(), scored.begin() + n, rng_);
  std::stable_sort(scored.begin(), scored.begin() + n, [](const auto& a, const auto& b) { return a.first > b.first; });
  for (int i = 0; i < n; ++i) out[i] = scored[i].second;
  return n;
}

void AlphaBetaPlayer::extend_line(int ply, Move move) {
  lines_[ply][0] = move;
  std::copy_n(lines_[ply + 1].begin(), line_lengths_[ply + 1], lines_[ply].begin() + 1);
  line_lengths_[ply] = line_lengths_[ply + 1] + 1;
}

int AlphaBetaPlayer::negamax(const Position& pos, int depth, int alpha, int beta, int ply) {
  ++nodes_;
  line_lengths_[ply] = 0;
  const Outcome outcome = pos.outcome();
  if (outcome.is_over()) return terminal_score(pos, outcome.result, ply);
  if (depth == 0) return material(pos);
  if (out_of_time()) return 0;

  Entry& entry = table_[pos.hash() & (table_.size() - 1)];
  const bool hit = entry.key == pos.hash();
  if (hit && entry.depth >= depth && ply > 0) {
    if (entry.bound == Bound::kExact) return entry.score;
    if (entry.bound == Bound::kLower && entry.score >= beta) return entry.score;
    if (entry.bound == Bound::kUpper && entry.score <= alpha) return entry.score;
  }

  std::array<Move, kMaxMoves> moves;
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
  const Bound bound = best_score <= original_alpha ? Bound::kUpper : best_score >= beta ? Bound::kLower : Bound::kExact;
  entry = {pos.hash(), static_cast<std::int16_t>(best_score), static_cast<std::int8_t>(depth), bound, best_move};
  return best_score;
}

Move AlphaBetaPlayer::choose_move(const Game& game) {
  const Position& pos = game.position();
  root_moves_ = moves_to_search<AtaxxGame>(game, limits_);
  if (root_moves_.size() == 1) return root_moves_[0];

  const MoveLimits& outside = limits_;
  const int outside_time_ms = move_time_ms(pos, outside);
  const int time_ms = outside_time_ms > 0 ? outside_time_ms : own_limits_.time_ms;
  // An outside limit other than depth (time, nodes, `go infinite`) lifts the player's own depth limit.
  const bool outside_limit = outside_time_ms > 0 || outside.nodes > 0 || outside.infinite;
  const int max_depth = std::min(kMaxPly, outside.depth > 0 ? outside.depth
                                          : outside_limit   ? kMaxPly
                                                            : own_limits_.depth);
  const auto start = std::chrono::steady_clock::now();
  has_deadline_ = time_ms > 0;
  deadline_ = start + std::chrono::milliseconds(time_ms);
  aborted_ = false;
  nodes_ = 0;
  Move best = root_moves_[0];
  report_ = {};
  report_.pv = {best};
  for (int depth = 1; depth <= max_depth; ++depth) {
    const int score = negamax(pos, depth, -kInfinity, kInfinity, 0);
    if (aborted_) break;
    best = table_[pos.hash() & (table_.size() - 1)].move;
    report_.depth = depth;
    report_.score_cp = score * 100;
    report_.pv.assign(lines_[0].begin(), lines_[0].begin() + line_lengths_[0]);
    if (progress_) {  // one report per completed iteration
      report_.nodes = nodes_;
      report_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress_(report_);
    }
  }
  report_.nodes = nodes_;
  report_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return best;
}

}  // namespace ataxx
