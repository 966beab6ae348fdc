// Alpha-beta baseline of every game: iterative deepening negamax, a transposition table, the
// table's move first and then the others by the game's order_gain. A depth or time limit; MultiPV.
// It evaluates by the game's score (G::Play).
#pragma once

#include <array>
#include <chrono>
#include <random>
#include <vector>

#include "players/player.h"

namespace ataxx {

struct AlphaBetaLimits {
  int depth = 3;    // deepest iteration
  int time_ms = 0;  // stop deepening after this long; 0 = none
};

// The `depth` and `time` options of an `alphabeta` spec: with a time and no depth, no depth limit.
AlphaBetaLimits read_alphabeta_limits(PlayerSpec& spec, int default_depth);

template <typename G>
class BasicAlphaBetaPlayer final : public BasicPlayer<G> {
 public:
  using Game = typename G::Game;
  using Position = typename G::Position;
  using Move = typename G::Move;
  using MoveReport = BasicMoveReport<G>;
  using Candidate = BasicCandidateMove<G>;
  using Limits = AlphaBetaLimits;

  explicit BasicAlphaBetaPlayer(Limits limits, int table_bits = 18);
  void new_game(std::uint64_t seed) override;
  Move choose_move(const Game& game) override;
  MoveReport last_report() const override { return report_; }
  std::uint64_t nodes() const { return nodes_; }

 private:
  enum class Bound : std::uint8_t { kExact, kLower, kUpper };
  struct Entry {
    std::uint64_t key = 0;
    std::int16_t score = 0;
    std::int8_t depth = -1;
    Bound bound = Bound::kExact;
    Move move;
  };
  using MoveArray = std::array<Move, G::kMaxMoves>;

  static constexpr int kMaxPly = 64;  // the deepest iteration

  int negamax(const Position& pos, int depth, int alpha, int beta, int ply);
  // The line below ply: the move that raised alpha there, then the line below it.
  void extend_line(int ply, Move move);
  // Fills moves ordered best-first: the table's move, then by men gained (shuffled ties at the
  // root, whose moves are root_moves_).
  int ordered_moves(const Position& pos, Move first, MoveArray& out, bool root);
  bool out_of_time();
  void size_table();  // grows the table to fit the nodes searched so far
  // The line the root's search just found, scoring `score` at `depth`.
  Candidate line_found(int depth, int score) const;
  // found, then the report's lines of moves not in it, up to `lines` in all.
  std::vector<Candidate> with_earlier_lines(std::vector<Candidate> found, int lines) const;

  Limits own_limits_;
  typename G::Rules rules_;
  typename G::MoveList root_moves_;  // the moves the root may play (the limits' searchmoves)
  MoveReport report_;
  std::size_t max_table_size_;
  std::vector<Entry> table_;  // a power of two entries, grown by size_table
  std::mt19937_64 rng_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  bool searching_other_line_ = false;  // MultiPV: the root searches without the moves given lines before
  bool has_deadline_ = false;
  std::chrono::steady_clock::time_point deadline_;
  // The principal variation of the iteration in progress, a triangular table: lines_[ply] is the
  // best line found from ply on (cut short where the table gave a node's score), of
  // line_lengths_[ply] moves.
  std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> lines_;
  std::array<int, kMaxPly + 1> line_lengths_{};
};

using AlphaBetaPlayer = BasicAlphaBetaPlayer<DefaultGame>;

}  // namespace ataxx
