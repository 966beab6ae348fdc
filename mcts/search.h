// PUCT Monte Carlo tree search over a batched Evaluator.
//
// One Search is one tree (one game). A thread drives many trees at once with run_searches():
// each round, every tree selects a few leaves under virtual loss, all leaves go to the
// evaluator as one batch, and the results are backed up. An expanded node's moves are edges
// (move, prior) in one arena; a node, in another, exists only for a move the search has chosen
// (most moves never are: an 8-byte edge is all they cost to expand and to scan, as in lc0). A
// move played keeps the chosen subtree (compacted into fresh arenas) and drops the rest.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "mcts/evaluator.h"

namespace ataxx {

template <typename G>
struct BasicSearchParams {
  int visits = 800;             // simulations per search (counting visits kept from reuse)
  double time_limit_s = 0.0;    // stop early after this long; 0 = no limit
  // UCI's `go depth`: stop once the line a report gives (the move it would play, then the most
  // visited replies) is this many moves long, or ends the game sooner, and the search has made a
  // visit of its own; 0 = no limit.
  int depth = 0;
  float c_puct = 1.5f;
  float fpu_reduction = 0.25f;  // unvisited children score parent Q minus this x sqrt(visited prior mass)
  // The priors as the search takes them: p^(1/T), renormalised (the softmax of the logits / T);
  // above 1 flatter than the net's, as lc0's policy softmax temperature.
  float policy_temperature = 1.0f;
  float dirichlet_alpha = 0.3f;
  float dirichlet_weight = 0.0f;  // share of root prior replaced by noise; 0 = no noise
  // KataGo's forced playouts, at a noised root only: a visited child with fewer than
  // sqrt(k x prior x root visits) is descended first; the policy target takes them back. 0 = none.
  float forced_playouts_k = 0.0f;
  int leaves_per_round = 8;       // leaves one tree sends per evaluator batch
  bool reuse_tree = true;
  // MCTS-Solver (Winands et al.): a node whose mover has a move to a proven loss for the other
  // side is a proven win, one all of whose moves lead to proven wins for the other side a proven
  // loss; proofs rise from terminal leaves (and wins in one) as they are found. A proven move is
  // scored by its proof, not by the visits it had before; the root plays a proven win whatever its
  // visits (of several, the one that ends the game soonest), and a proven loss only where every
  // move is one (then the one that holds out longest); a proven root ends a timed search, and stays
  // proven through the moves that follow it (tree reuse).
  bool solver = false;
  // With the solver: the search ends once the root is proven, won or lost (UCI's `go mate`; a search
  // on a clock always does).
  bool ends_at_proof = false;
  // Leela Zero's and KataGo's final move: of the root's children with at least a tenth of the most
  // visited one's visits, the one whose mean value less lcb_stdevs standard errors is highest,
  // instead of the most visited. 0 = the most visited.
  float lcb_stdevs = 0.0f;
  // KataGo's score utility, the final piece lead as the score: a leaf is worth its expected result
  // plus lead_utility x its expected final lead (Wdl::lead; a finished game's, the lead on its
  // board), so that of moves alike in value the search prefers the larger lead. The values the
  // search reports include it. 0 = none.
  float lead_utility = 0.0f;
  // A leaf whose position the tree holds elsewhere, expanded (a transposition: clone moves commute;
  // in Ataxx games 6 % of the leaves at 100 ms a move, 13 % at 1 s), takes that node's moves and
  // priors and, for its first visit, its mean value over its subtree, with no evaluation. Within a
  // tree: a twin the kept subtree lost at a re-root is forgotten.
  bool transpositions = false;
  // The memory the tree may hold (memory_bytes()): the search stops where a round would need more.
  std::size_t max_tree_bytes = std::size_t{1} << 30;
  typename G::Rules rules;
};

template <typename G>
struct BasicSearchResult {
  using Move = typename G::Move;

  std::vector<Move> moves;    // the root's legal moves
  std::vector<int> visits;    // visits of each
  // The policy target: the visits, less the forced playouts that PUCT would not have given.
  std::vector<int> policy_target;
  float value = 0.0f;  // root value for the side to move, in [-1, 1]
  int total_visits = 0;
  int selective_depth = 0;  // the deepest leaf this search selected, in plies below the root (UCI's seldepth)
  std::vector<Move> principal_variation;
  std::optional<Move> winning_move;  // a move proven to win: at once, or by the solver's proof
  // With the solver, where the root's result is proven (a move to a proven loss for the other side,
  // or every move to a proven win for it): the plies to the game's end by the proof, positive for a
  // win of the side to move (the shortest found), negative for a loss (the longest); value is then
  // 1 or -1.
  std::optional<int> proven_plies;
  std::optional<Move> chosen_move;   // the search's choice (BasicSearch::move_to_play); none unvisited
  // For display (GUIs, the browser view), one per move, from the mover's view: the prior, the mean
  // value (0 while unvisited), the network's value of the position it leads to, where known, and
  // the search's.
  std::vector<float> priors;
  std::vector<float> network_priors;  // the same before the root's Dirichlet noise (self-play's surprise)
  std::vector<float> explorations;  // PUCT's bonus for each when the search ended (lc0's U)
  std::vector<float> values;
  // The mean value less lcb_stdevs standard errors: the bound the LCB's choice is made by; from a move's
  // second visit on, none without lcb_stdevs.
  std::vector<std::optional<float>> lower_bounds;
  std::vector<std::optional<Wdl>> network_values;
  std::vector<std::optional<Wdl>> search_values;  // as root_search_value, for the position after the move
  std::vector<std::optional<int>> proven_plies_after;  // as proven_plies, for the mover, of each move
  std::optional<Wdl> root_network_value;  // the network's value of the root, where known
  // The search's: the root's mean win/draw/loss and expected final lead over its visits, for
  // the side to move (lead_utility left out: win - loss is the expected result); none unvisited.
  std::optional<Wdl> root_search_value;
  // The winning move, else chosen_move, else (a result made without a search) the most visited;
  // throws std::runtime_error when the root is a finished game (no moves).
  Move best_move() const;
};

template <typename G>
class BasicSearch {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using MoveList = typename G::MoveList;
  using SearchParams = BasicSearchParams<G>;
  using SearchResult = BasicSearchResult<G>;
  using EvalRequest = BasicEvalRequest<G>;

  BasicSearch(const SearchParams& params, std::uint64_t seed);

  // Starts a new tree at pos. recent_hashes (Game::recent_hashes, pos last) lets the search see
  // repetitions of earlier game positions; without it only repetitions inside the tree count.
  void set_root(const Position& pos, std::span<const std::uint64_t> recent_hashes = {});
  // The game moved on by `moves`: keeps the subtree they lead to when reuse is on and the tree
  // has it, else starts afresh. One copy of the kept subtree, however many moves.
  void advance(std::span<const Move> moves);
  void advance(Move move) { advance(std::span(&move, 1)); }
  const Position& root_position() const { return root_position_; }
  const SearchParams& params() const { return params_; }
  // Visits already in the tree at the root (kept from the previous move when the tree is reused).
  int root_visits() const { return nodes_[kRoot].visits; }
  // The bytes the tree holds: its arenas' capacity, the spare ones kept for re-rooting included,
  // and the positions remembered for transpositions. Within max_tree_bytes, but while advance()
  // copies the kept subtree beside the tree.
  std::size_t memory_bytes() const;
  // The share of max_tree_bytes the tree's nodes and edges (and remembered positions) fill, in
  // thousandths (UCI's hashfull).
  int permille_full() const;
  void set_visits(int visits) { params_.visits = visits; }
  void set_dirichlet_weight(float weight) { params_.dirichlet_weight = weight; }
  void set_time_limit(double seconds) { params_.time_limit_s = seconds; }
  void set_depth(int depth) { params_.depth = depth; }
  void set_ends_at_proof(bool ends) { params_.ends_at_proof = ends; }
  void set_c_puct(float c_puct) { params_.c_puct = c_puct; }
  // A flag another thread may set to end the search early (after at least one visit).
  void set_stop_flag(const std::atomic<bool>* stop) { stop_ = stop; }
  // Only these of the root's moves are searched, reported and chosen (UAI's searchmoves) until
  // the root changes; empty: every move.
  void restrict_root_moves(std::vector<Move> moves) { root_moves_ = std::move(moves); }
  bool restricts_root_moves() const { return !root_moves_.empty(); }

  // Per-search set-up: root noise, clock. Called by run_searches.
  void begin();
  bool done() const;

 private:
  struct PendingLeaf;

 public:
  // The leaves of one round: selected under virtual loss, awaiting their evaluations. A search
  // has one of its own (the calls without a round); threads that share its tree bring one each.
  class Round {
    friend class BasicSearch;
    std::vector<PendingLeaf> leaves_;
    int count_ = 0;
  };

  // Selects up to params().leaves_per_round leaves into `round`, appending their requests;
  // terminal leaves are backed up at once. Requests stay valid until apply_evaluations(round).
  void collect_leaves(Round& round, std::vector<EvalRequest>& requests);
  // Expands and backs up every leaf of the round, once the evaluator has filled their requests.
  void apply_evaluations(Round& round);
  // Forgets the round's leaves, for when their evaluation failed: their virtual losses are
  // taken back and they can be selected again. The search stays usable.
  void discard_pending(Round& round);
  void collect_leaves(std::vector<EvalRequest>& requests) { collect_leaves(own_round_, requests); }
  void apply_evaluations() { apply_evaluations(own_round_); }
  void discard_pending() { discard_pending(own_round_); }
  SearchResult result() const;
  // A root move and the most visited line the tree holds after it (UAI's MultiPV lines), with
  // the visits of the node each of its moves leads to.
  struct Line {
    std::vector<Move> moves;
    std::vector<int> visits;
  };
  Line line_after(Move move) const;
  // A node of the tree, as visited_tree lists it.
  struct TreeNode {
    std::size_t parent = 0;    // its parent's place in the list (the root's, first: 0, itself)
    Move move = Move::pass();  // the move from its parent here (the root's means nothing)
    int visits = 0;
    bool finished = false;  // its position ends the game (its value the result, not the network's)
  };
  // The nodes of at least min_visits visits (at least 1) reached from the root through such nodes,
  // breadth first: the root, then each node's children together, in the order of its moves.
  std::vector<TreeNode> visited_tree(int min_visits) const;

 private:
  enum class State : std::uint8_t { kUnexpanded, kPending, kExpanded, kTerminal };
  // A network evaluation's win, loss and lead in 16 bits each (the draw the rest): every node the
  // network evaluated keeps it, for display and for self-play's value surprise, through re-roots.
  struct NetworkWdl {
    static constexpr float kStep = 1.0f / 65535.0f;
    static constexpr float kLeadStep = 1.0f / 32767.0f;
    std::uint16_t win_steps = 0;
    std::uint16_t loss_steps = 0;
    std::int16_t lead_steps = 0;
    bool known = false;

    static NetworkWdl of(const Wdl& value);
    std::optional<Wdl> get() const;
  };
  struct Node {
    State state = State::kUnexpanded;
    std::int8_t terminal_value = 0;  // for kTerminal: -1, 0 or 1 for the side to move here
    std::uint16_t num_edges = 0;
    float value_sum = 0.0f;         // utilities, from the view of the side that played the move here
    float value_square_sum = 0.0f;  // of the same values squared: their variance
    float draw_sum = 0.0f;          // draw probabilities (a finished game's: 0 or 1)
    float lead_sum = 0.0f;          // expected final leads, from the same view as value_sum
    std::int32_t visits = 0;
    std::int32_t in_flight = 0;   // leaves below awaiting evaluation (virtual losses)
    std::uint32_t parent = 0;     // the root's is itself
    std::uint32_t edge = 0;       // the parent's edge that leads here (none for the root)
    std::uint32_t first_edge = 0;
    // The network's, from the view of the side to move here, where it evaluated this node.
    [[no_unique_address]] NetworkWdl network_value;
    // For kTerminal: the plies from here to the game's end by the proof (0: the game ended here), up
    // to 255. In network_value's tail padding: a node stays 48 bytes.
    std::uint8_t proof_plies = 0;

    // Whether its result is known (a finished game, or the solver's proof) to be `value` for the
    // side to move here.
    bool known_to_be(int value) const { return state == State::kTerminal && terminal_value == value; }
  };
  // The prior in 16 bits (steps of 1/65535): an Ataxx edge is 8 bytes, not 12, a third less of
  // the tree's memory to hold, scan and copy.
  struct Edge {
    static constexpr float kPriorStep = 1.0f / 65535.0f;
    Move move = Move::pass();
    std::uint16_t prior_steps = 0;
    std::uint32_t node = 0;  // the node it leads to, once chosen; 0 (the root, never a child) before

    float prior() const { return static_cast<float>(prior_steps) * kPriorStep; }
    void set_prior(float prior) {  // clamped to [0, 1], NaN to 0
      prior_steps = static_cast<std::uint16_t>((prior >= 0.0f ? std::min(prior, 1.0f) : 0.0f) * 65535.0f + 0.5f);
    }
  };
  static_assert(sizeof(Move) > 2 || sizeof(Edge) == 8);
  static_assert(sizeof(Node) == 48);
  static constexpr Node kUnchosen{};  // what an edge without a node leads to: no visits yet
  struct PendingLeaf {
    std::uint32_t node = 0;
    Position position;
    MoveList moves;
    std::array<float, G::kMaxMoves> priors;
    Wdl value;
  };
  static constexpr std::uint32_t kRoot = 0;

  void start_tree(const Position& pos);  // an empty tree at pos, keeping game_hashes_
  // Numbers of elements of the two arenas (their sizes or capacities) and the bytes they take.
  struct ArenaSizes {
    std::size_t nodes = 0;
    std::size_t edges = 0;
    std::size_t bytes() const { return nodes * sizeof(Node) + edges * sizeof(Edge); }
    bool operator==(const ArenaSizes&) const = default;
  };
  ArenaSizes capacities() const { return {nodes_.capacity(), edges_.capacity()}; }
  ArenaSizes spare_capacities() const { return {spare_nodes_.capacity(), spare_edges_.capacity()}; }
  // The positions remembered for transpositions: the map's entries and buckets, now and after one
  // more round, should its buckets double. They have a share of max_tree_bytes of their own
  // (transposition_bound), the arenas the rest (arena_bound).
  std::size_t transposition_bytes() const;
  std::size_t transposition_bytes_after_round() const;
  std::size_t transposition_bound() const;
  std::size_t arena_bound() const;
  // The sizes the arenas take after one more round: its new nodes, and the edges of its leaves and
  // of every leaf in flight before it (another thread's), each with the most moves a position has.
  ArenaSizes round_sizes() const;
  // The capacities that take one more round: the arenas' own where they do, else twice the size
  // of the arena that lacks room, else the whole of max_tree_bytes shared between the arenas
  // (always something before the root's first visit). None when the bound leaves no room.
  std::optional<ArenaSizes> capacities_for_round() const;
  // Gives the arenas capacities_for_round() (the spare arenas let go first where the bound needs
  // them); false when it is none.
  bool make_room_for_round();
  template <typename T>
  static void move_arena(std::vector<T>& arena, std::size_t capacity);  // to that capacity, elements kept
  void release_spare_arenas();
  // Descends from the root under virtual loss, adding the leaf to `round`. Returns false on a
  // collision with a leaf already awaiting evaluation.
  bool select_one(Round& round);
  std::uint32_t select_edge(const Node& node, bool force) const;
  // The node an edge leads to, made when the search first chooses the edge.
  std::uint32_t child_of(std::uint32_t parent, std::uint32_t edge);
  const Node& child(const Edge& edge) const { return edge.node ? nodes_[edge.node] : kUnchosen; }
  // The node that `move` from node leads to, where the tree has one.
  std::optional<std::uint32_t> chosen_child(std::uint32_t node, Move move) const;
  std::span<const Edge> edges_of(const Node& node) const { return {edges_.data() + node.first_edge, node.num_edges}; }
  // The move the search plays now: a proven win, else the LCB's choice (lcb_stdevs), else the most
  // visited; a move known to lose only where every move is one. None before the root is expanded.
  std::optional<Move> move_to_play() const;
  std::optional<Move> lcb_move() const;  // of lcb_stdevs; none before the root has a visited child
  // Ties to the higher prior; none without edges (at the root: of those restrict_root_moves allows,
  // and a move known to lose only where all are).
  const Edge* most_visited_edge(const Node& node, bool at_root = false) const;
  bool root_choice_excludes(const Edge& edge) const;  // a move root_allows not, or known to lose where not all are
  bool root_has_move_not_lost() const;                // of those root_allows
  // The move to a proven loss for the other side that ends the game soonest (at the root, of those
  // root_allows); none: null.
  const Edge* fastest_proof_edge(const Node& node, bool at_root = false) const;
  // The root's proven result: the move that proves it and its plies to the game's end (as
  // SearchResult::proven_plies). A win: the win in one the root was expanded with, else
  // fastest_proof_edge's; with the solver, a loss where every move loses: longest_loss_edge's.
  struct RootProof {
    Move move;
    int plies = 0;
  };
  std::optional<RootProof> root_proof() const;
  // Of a node's moves (at the root: those root_allows), all known to lose: the one whose loss is
  // longest (ties: the most visited); none: null.
  const Edge* longest_loss_edge(const Node& node, bool at_root = false) const;
  bool principal_line_reaches(int depth) const;               // as SearchParams::depth
  std::optional<float> lower_bound(const Node& child) const;  // as SearchResult::lower_bounds
  bool root_allows(Move move) const;     // whether restrict_root_moves lets the root play move
  bool forces_playouts() const { return params_.forced_playouts_k > 0 && params_.dirichlet_weight > 0; }
  float forced_playouts(float prior, int parent_visits) const;
  // PUCT's exploration bonus of a child is this times its prior over 1 + its visits.
  float exploration_scale(int parent_visits) const {
    return params_.c_puct * std::sqrt(static_cast<float>(std::max(parent_visits, 1)));
  }
  std::vector<int> pruned_root_visits() const;
  // Whether pos, reached by the current selection path, occurs for the repetition_limit-th time.
  bool ends_by_repetition(const Position& pos) const;
  void add_in_flight(std::uint32_t leaf, int delta);
  // Adds value (from the view of the side to move at leaf) along the path to the root.
  void backup(std::uint32_t leaf, const Wdl& value);
  // What a leaf's value is worth to the search.
  float utility(const Wdl& value) const { return value.expectation() + params_.lead_utility * value.lead; }
  // A node's mean win/draw/loss and lead from the view of the side to move there; none unvisited.
  std::optional<Wdl> mean_wdl(const Node& node) const;
  void expand(std::uint32_t node, PendingLeaf& leaf);  // tempers the leaf's priors in place
  // With transpositions: the expanded node elsewhere in the tree at the same position as leaf,
  // whose moves and mean value leaf takes (backed up); false where there is none.
  bool expand_from_transposition(std::uint32_t leaf, const Position& pos);
  void remember_position(std::uint32_t node, const Position& pos);  // an expanded node's, for transpositions
  // node was just proven (kTerminal, -1 or 1): the proofs that follow for its ancestors.
  void propagate_proof(std::uint32_t node);
  void add_root_noise();
  // Copies the subtree under node into fresh arenas, node first, each node's edges contiguous;
  // the positions remembered for transpositions follow their nodes.
  void copy_subtree(std::uint32_t node, std::vector<Node>& nodes, std::vector<Edge>& edges);

  SearchParams params_;
  std::mt19937_64 rng_;
  Position root_position_;
  std::vector<Node> nodes_;  // nodes_[kRoot] is the root
  std::vector<Edge> edges_;
  std::vector<Node> spare_nodes_;  // the previous arenas, kept for their capacity
  std::vector<Edge> spare_edges_;
  std::vector<std::uint64_t> game_hashes_;  // positions before and at the root that can recur
  std::vector<std::uint64_t> path_hashes_;  // positions after the root on the current selection path
  // With transpositions: the first expanded node of each position (G::transposition_key).
  std::unordered_map<std::uint64_t, std::uint32_t> expanded_positions_;
  bool path_kept_history_ = true;           // false once the path made a single
  Round own_round_;
  bool root_noised_ = false;
  std::vector<float> root_priors_before_noise_;  // by root edge; empty where the root has no noise
  std::vector<Move> root_moves_;  // restrict_root_moves'
  std::optional<Move> root_win_in_one_;  // G::winning_move's, found when the root was expanded
  std::chrono::steady_clock::time_point started_;
  int visits_at_begin_ = 0;  // the root's, kept from an earlier search
  int selective_depth_ = 0;  // since begin()
  const std::atomic<bool>* stop_ = nullptr;
};

// One round: every search that is not done selects its leaves, the evaluator takes them all as
// one batch, and they are backed up. When the evaluator throws, every search drops its pending
// leaves and the exception goes on to the caller. `requests` is scratch space, kept for its capacity.
template <typename G>
void search_round(std::span<BasicSearch<std::type_identity_t<G>>* const> searches, BasicEvaluator<G>& evaluator,
                  std::vector<BasicEvalRequest<std::type_identity_t<G>>>& requests);

// Runs every search to its limit in rounds (begin() first); after_round, when given, runs after
// each round of backups (progress reports).
template <typename G>
void run_searches(std::span<BasicSearch<std::type_identity_t<G>>* const> searches, BasicEvaluator<G>& evaluator,
                  const std::function<void()>& after_round = {});
template <typename G>
BasicSearchResult<G> run_search(BasicSearch<G>& search, BasicEvaluator<G>& evaluator) {
  BasicSearch<G>* one[] = {&search};
  run_searches<G>(one, evaluator);
  return search.result();
}

// Picks a move: best_move() at temperature 0, else with probability proportional to its policy
// target's visits^(1/temperature), the forced playouts taken back as KataGo's play selection does
// (with no visits at all: the first move); a proven root's by its proof (best_move()), and never a
// move proven to lose where another is not. Throws std::invalid_argument for a negative or
// non-finite temperature.
template <typename G>
typename G::Move choose_move(const BasicSearchResult<G>& result, float temperature, std::mt19937_64& rng);

// The default game's short names (games/registry.h), which the tests and tools use.
using SearchParams = BasicSearchParams<DefaultGame>;
using SearchResult = BasicSearchResult<DefaultGame>;
using Search = BasicSearch<DefaultGame>;

// Compiled once, in search.cpp, for each game.
#define ATAXX_DECLARE(G) extern template class BasicSearch<G>;
ATAXX_FOR_EACH_GAME(ATAXX_DECLARE)
#undef ATAXX_DECLARE

}  // namespace ataxx
