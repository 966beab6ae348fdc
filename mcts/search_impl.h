// The template definitions of mcts/search.h: included by search.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "mcts/search.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ataxx {
namespace {

// A value from the other side's view: win and loss swapped, the lead negated.
std::optional<Wdl> movers_view(std::optional<Wdl> value) {
  if (value) value = value->flipped();
  return value;
}

}  // namespace

template <typename G>
typename G::Move BasicSearchResult<G>::best_move() const {
  if (moves.empty())
    throw std::runtime_error("no move to choose: the game is over at the search's root (under the search's rules)");
  if (winning_move) return *winning_move;
  if (chosen_move) return *chosen_move;
  // The most visited; among equals (a search of a few visits, or of one) the policy's favourite.
  std::size_t best = 0;
  for (std::size_t i = 1; i < moves.size(); ++i)
    if (visits[i] > visits[best] || (visits[i] == visits[best] && i < priors.size() && priors[i] > priors[best]))
      best = i;
  return moves[best];
}

template <typename G>
typename BasicSearch<G>::NetworkWdl BasicSearch<G>::NetworkWdl::of(const Wdl& value) {
  const auto steps = [](float p) { return static_cast<std::uint16_t>(std::clamp(p, 0.0f, 1.0f) * 65535.0f + 0.5f); };
  return {.win_steps = steps(value.win),
          .loss_steps = steps(value.loss),
          .lead_steps = static_cast<std::int16_t>(std::lround(std::clamp(value.lead, -1.0f, 1.0f) * 32767.0f)),
          .known = true};
}

template <typename G>
std::optional<Wdl> BasicSearch<G>::NetworkWdl::get() const {
  if (!known) return std::nullopt;
  const float win = win_steps * kStep, loss = loss_steps * kStep;
  return Wdl{.win = win, .draw = std::max(1.0f - win - loss, 0.0f), .loss = loss, .lead = lead_steps * kLeadStep};
}

template <typename G>
BasicSearch<G>::BasicSearch(const SearchParams& params, std::uint64_t seed) : params_(params), rng_(seed) {
  set_root(G::start());
}

template <typename G>
void BasicSearch<G>::set_root(const Position& pos, std::span<const std::uint64_t> recent_hashes) {
  game_hashes_.assign(recent_hashes.begin(), recent_hashes.end());
  if (game_hashes_.empty() || game_hashes_.back() != pos.hash()) game_hashes_.assign(1, pos.hash());
  start_tree(pos);
}

template <typename G>
void BasicSearch<G>::start_tree(const Position& pos) {
  root_position_ = pos;
  nodes_.clear();
  edges_.clear();
  nodes_.emplace_back();
  root_noised_ = false;
  root_priors_before_noise_.clear();
  root_moves_.clear();
  root_win_in_one_.reset();
  expanded_positions_.clear();
}

template <typename G>
void BasicSearch<G>::advance(std::span<const Move> moves) {
  assert(own_round_.count_ == 0);
  if (moves.empty()) return;
  // Down the tree along the moves as far as it has them; the subtree at the end is kept.
  std::optional<std::uint32_t> kept = kRoot;
  Position next = root_position_;
  for (const Move move : moves) {
    if (kept) kept = chosen_child(*kept, move);
    next.make_move(move);
    if (G::is_irreversible(move)) game_hashes_.clear();
    game_hashes_.push_back(next.hash());
  }
  // A game over or a win in one (no moves in the tree) needs a new root; a position the solver
  // proved keeps its subtree, and with it the proof.
  if (!params_.reuse_tree || !kept || (nodes_[*kept].state == State::kTerminal && nodes_[*kept].num_edges == 0)) {
    start_tree(next);
    return;
  }
  copy_subtree(*kept, spare_nodes_, spare_edges_);
  nodes_.swap(spare_nodes_);
  edges_.swap(spare_edges_);
  if (memory_bytes() > params_.max_tree_bytes) release_spare_arenas();
  root_position_ = next;
  root_noised_ = false;
  root_priors_before_noise_.clear();
  root_moves_.clear();
  root_win_in_one_.reset();
  Node& root = nodes_[kRoot];
  // Proven: searched on as a root, which the solver never marks (its moves hold the proof).
  if (root.state == State::kTerminal) root.state = State::kExpanded;
}

template <typename G>
std::optional<std::uint32_t> BasicSearch<G>::chosen_child(std::uint32_t node, Move move) const {
  for (const Edge& edge : edges_of(nodes_[node]))  // an expanded node's, or a proven one's
    if (edge.move == move) return edge.node != 0 ? std::optional(edge.node) : std::nullopt;
  return std::nullopt;
}

template <typename G>
void BasicSearch<G>::copy_subtree(std::uint32_t node, std::vector<Node>& nodes, std::vector<Edge>& edges) {
  // The subtree is no larger than the tree: the copy never grows its arenas on the way.
  nodes.reserve(nodes_.size());
  edges.reserve(edges_.size());
  nodes.assign(1, nodes_[node]);
  nodes[kRoot].parent = kRoot;
  nodes[kRoot].edge = 0;
  edges.clear();
  constexpr std::uint32_t kDropped = ~std::uint32_t{0};
  std::vector<std::uint32_t> copy_of;  // each node's index in the copy, for the remembered positions
  if (!expanded_positions_.empty()) {
    copy_of.assign(nodes_.size(), kDropped);
    copy_of[node] = kRoot;
  }
  // Breadth first: each copied node's edges are copied next, and the nodes they lead to queued.
  for (std::uint32_t copied = 0; copied < nodes.size(); ++copied) {
    const auto first = static_cast<std::uint32_t>(edges.size());
    const std::span<const Edge> original = edges_of(nodes[copied]);
    nodes[copied].first_edge = first;
    for (const Edge& edge : original) {
      edges.push_back(edge);
      if (edge.node == 0) continue;
      edges.back().node = static_cast<std::uint32_t>(nodes.size());
      if (!copy_of.empty()) copy_of[edge.node] = edges.back().node;
      nodes.push_back(nodes_[edge.node]);
      nodes.back().parent = copied;
      nodes.back().edge = static_cast<std::uint32_t>(edges.size() - 1);
    }
  }
  for (auto entry = expanded_positions_.begin(); entry != expanded_positions_.end();) {
    entry->second = copy_of[entry->second];
    entry = entry->second == kDropped ? expanded_positions_.erase(entry) : std::next(entry);
  }
}

template <typename G>
std::size_t BasicSearch<G>::memory_bytes() const {
  return capacities().bytes() + spare_capacities().bytes() + transposition_bytes();
}

namespace {
constexpr std::size_t kRememberedPositionBytes = 32;  // a map node (next, key, index), as malloc rounds it
}  // namespace

template <typename G>
std::size_t BasicSearch<G>::transposition_bytes() const {
  if (!params_.transpositions) return 0;
  return expanded_positions_.size() * kRememberedPositionBytes + expanded_positions_.bucket_count() * sizeof(void*);
}

template <typename G>
std::size_t BasicSearch<G>::transposition_bytes_after_round() const {
  if (!params_.transpositions) return 0;
  // This round's leaves and those in flight before it (another thread's), as round_sizes() counts them.
  const std::size_t entries = expanded_positions_.size() + static_cast<std::size_t>(params_.leaves_per_round) +
                              static_cast<std::size_t>(nodes_[kRoot].in_flight);
  return entries * kRememberedPositionBytes + 2 * std::max(entries, expanded_positions_.bucket_count()) * sizeof(void*);
}

template <typename G>
std::size_t BasicSearch<G>::transposition_bound() const {
  // About 48 bytes a node (its entry and two buckets) of the 400 it takes with its edges.
  return params_.transpositions ? params_.max_tree_bytes / 7 : 0;
}

template <typename G>
std::size_t BasicSearch<G>::arena_bound() const {
  return params_.max_tree_bytes - transposition_bound();
}

template <typename G>
int BasicSearch<G>::permille_full() const {
  const std::size_t used = ArenaSizes{nodes_.size(), edges_.size()}.bytes() + transposition_bytes();
  return static_cast<int>(std::min<std::size_t>(1000, used * 1000 / std::max<std::size_t>(1, params_.max_tree_bytes)));
}

template <typename G>
typename BasicSearch<G>::ArenaSizes BasicSearch<G>::round_sizes() const {
  const auto leaves = static_cast<std::size_t>(params_.leaves_per_round);
  const auto in_flight = static_cast<std::size_t>(nodes_[kRoot].in_flight);
  return {nodes_.size() + leaves, edges_.size() + (leaves + in_flight) * G::kMaxMoves};
}

template <typename G>
std::optional<typename BasicSearch<G>::ArenaSizes> BasicSearch<G>::capacities_for_round() const {
  const ArenaSizes needed = round_sizes(), now = capacities();
  if (transposition_bytes_after_round() > transposition_bound()) return std::nullopt;
  if (needed.nodes <= now.nodes && needed.edges <= now.edges) return now;
  const ArenaSizes doubled{needed.nodes > now.nodes ? std::max(needed.nodes, 2 * nodes_.size()) : now.nodes,
                           needed.edges > now.edges ? std::max(needed.edges, 2 * edges_.size()) : now.edges};
  const std::size_t bound = arena_bound();
  if (doubled.bytes() <= bound || nodes_[kRoot].visits == 0) return doubled;
  if (needed.bytes() > bound) return std::nullopt;
  // At the bound: all of it, shared in proportion to the arenas' sizes, each with its need first;
  // worth moving the arenas for only if that gives an arena that lacks room an eighth more.
  const std::size_t left = bound - needed.bytes();
  const auto node_bytes = static_cast<double>(ArenaSizes{nodes_.size(), 0}.bytes());
  const double node_share = node_bytes / std::max(1.0, static_cast<double>(ArenaSizes{nodes_.size(), edges_.size()}.bytes()));
  const ArenaSizes shared{needed.nodes + static_cast<std::size_t>(node_share * left) / sizeof(Node),
                          needed.edges + static_cast<std::size_t>((1 - node_share) * left) / sizeof(Edge)};
  const bool worth_it = (needed.nodes <= now.nodes || shared.nodes >= now.nodes + now.nodes / 8) &&
                        (needed.edges <= now.edges || shared.edges >= now.edges + now.edges / 8);
  return worth_it ? std::optional(shared) : std::nullopt;
}

template <typename G>
bool BasicSearch<G>::make_room_for_round() {
  const std::optional<ArenaSizes> target = capacities_for_round();
  if (!target) return false;
  if (spare_capacities().bytes() + target->bytes() > arena_bound()) release_spare_arenas();
  if (*target == capacities()) return true;
  move_arena(nodes_, target->nodes);
  move_arena(edges_, target->edges);
  return true;
}

template <typename G>
template <typename T>
void BasicSearch<G>::move_arena(std::vector<T>& arena, std::size_t capacity) {
  if (capacity == arena.capacity()) return;
  std::vector<T> moved;
  moved.reserve(capacity);
  moved.assign(arena.begin(), arena.end());
  arena.swap(moved);
}

template <typename G>
void BasicSearch<G>::release_spare_arenas() {
  spare_nodes_ = std::vector<Node>();  // (= {} would keep the capacity)
  spare_edges_ = std::vector<Edge>();
}

template <typename G>
void BasicSearch<G>::begin() {
  started_ = std::chrono::steady_clock::now();
  visits_at_begin_ = nodes_[kRoot].visits;
  selective_depth_ = 0;
  if (nodes_[kRoot].state == State::kExpanded && !root_noised_) add_root_noise();
}

template <typename G>
bool BasicSearch<G>::done() const {
  const Node& root = nodes_[kRoot];
  if (root.state == State::kTerminal) return true;
  if (root.visits >= params_.visits) return true;
  if (!capacities_for_round()) return true;
  if (stop_ && root.visits > 0 && stop_->load(std::memory_order_relaxed)) return true;
  // A clock's time is not spent on a proven root (a search of visits goes on: its counts are a target).
  if (params_.solver && (params_.time_limit_s > 0 || params_.ends_at_proof) && root.visits > 0 &&
      root.state == State::kExpanded && root_proof())
    return true;
  if (params_.time_limit_s > 0 && root.visits > 0) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (elapsed >= params_.time_limit_s) return true;
  }
  return params_.depth > 0 && root.visits > visits_at_begin_ && principal_line_reaches(params_.depth);
}

// The line a report gives: the move the search would play now, then the most visited replies; a position the solver
// proved ends it as the game's end does. Without result(): it runs at every round of a `go depth`.
template <typename G>
bool BasicSearch<G>::principal_line_reaches(int depth) const {
  const std::optional<Move> first = move_to_play();
  const std::optional<std::uint32_t> after = first ? chosen_child(kRoot, *first) : std::nullopt;
  const Node* node = after ? &nodes_[*after] : nullptr;
  for (int moves = 1; moves < depth; ++moves) {
    if (!node || node->visits == 0) return false;
    if (node->state == State::kTerminal) return true;  // the line ends the game
    const Edge* best = node->state == State::kExpanded ? most_visited_edge(*node) : nullptr;
    node = best ? &child(*best) : nullptr;
  }
  return node && node->visits > 0;
}

template <typename G>
std::optional<typename G::Move> BasicSearch<G>::move_to_play() const {
  if (const std::optional<RootProof> proof = root_proof()) return proof->move;
  if (params_.lcb_stdevs > 0.0f)
    if (const std::optional<Move> move = lcb_move()) return move;
  const Edge* best = most_visited_edge(nodes_[kRoot], /*at_root=*/true);
  return best ? std::optional(best->move) : std::nullopt;
}

template <typename G>
const typename BasicSearch<G>::Edge* BasicSearch<G>::fastest_proof_edge(const Node& node, bool at_root) const {
  const Edge* fastest = nullptr;
  for (const Edge& edge : edges_of(node))
    if (child(edge).known_to_be(-1) && (!at_root || root_allows(edge.move)) &&
        (!fastest || child(edge).proof_plies < child(*fastest).proof_plies))
      fastest = &edge;
  return fastest;
}

template <typename G>
std::optional<typename BasicSearch<G>::RootProof> BasicSearch<G>::root_proof() const {
  if (root_win_in_one_ && root_allows(*root_win_in_one_)) return RootProof{*root_win_in_one_, 1};
  if (const Edge* win = fastest_proof_edge(nodes_[kRoot], /*at_root=*/true))
    return RootProof{win->move, 1 + child(*win).proof_plies};
  if (!params_.solver || root_has_move_not_lost()) return std::nullopt;
  const Edge* loss = longest_loss_edge(nodes_[kRoot], /*at_root=*/true);
  return loss ? std::optional(RootProof{loss->move, -(1 + child(*loss).proof_plies)}) : std::nullopt;
}

template <typename G>
const typename BasicSearch<G>::Edge* BasicSearch<G>::longest_loss_edge(const Node& node, bool at_root) const {
  const Edge* longest = nullptr;
  for (const Edge& edge : edges_of(node)) {
    if (at_root && !root_allows(edge.move)) continue;
    const Node& loss = child(edge);
    if (!longest || loss.proof_plies > child(*longest).proof_plies ||
        (loss.proof_plies == child(*longest).proof_plies && loss.visits > child(*longest).visits))
      longest = &edge;
  }
  return longest;
}

template <typename G>
bool BasicSearch<G>::root_has_move_not_lost() const {
  return std::ranges::any_of(edges_of(nodes_[kRoot]),
                             [&](const Edge& edge) { return root_allows(edge.move) && !child(edge).known_to_be(1); });
}

template <typename G>
bool BasicSearch<G>::root_choice_excludes(const Edge& edge) const {
  return !root_allows(edge.move) || (child(edge).known_to_be(1) && root_has_move_not_lost());
}

template <typename G>
const typename BasicSearch<G>::Edge* BasicSearch<G>::most_visited_edge(const Node& node, bool at_root) const {
  const Edge* best = nullptr;
  for (const Edge& edge : edges_of(node))
    if ((!at_root || !root_choice_excludes(edge)) &&
        (!best || child(edge).visits > child(*best).visits ||
         (child(edge).visits == child(*best).visits && edge.prior() > best->prior())))
      best = &edge;
  return best;
}

template <typename G>
void BasicSearch<G>::collect_leaves(Round& round, std::vector<EvalRequest>& requests) {
  assert(round.count_ == 0);
  if (!make_room_for_round()) return;
  if (round.leaves_.size() < static_cast<std::size_t>(params_.leaves_per_round)) round.leaves_.resize(params_.leaves_per_round);
  for (int attempt = 0; attempt < params_.leaves_per_round; ++attempt) {
    const Node& root = nodes_[kRoot];
    if (root.state == State::kTerminal || root.visits + root.in_flight >= params_.visits) break;
    if (!select_one(round)) break;
  }
  for (int i = 0; i < round.count_; ++i) {
    PendingLeaf& leaf = round.leaves_[i];
    requests.push_back({&leaf.position, std::span<const Move>(leaf.moves.begin(), leaf.moves.size()),
                        std::span<float>(leaf.priors.data(), leaf.moves.size()), &leaf.value});
  }
}

template <typename G>
bool BasicSearch<G>::select_one(Round& round) {
  std::uint32_t current = kRoot;
  Position pos = root_position_;
  path_hashes_.clear();
  path_kept_history_ = true;
  int depth = 0;
  for (; nodes_[current].state == State::kExpanded; ++depth) {
    const std::uint32_t edge = select_edge(nodes_[current], current == kRoot && forces_playouts());
    const Move move = edges_[edge].move;
    current = child_of(current, edge);
    pos.make_move(move);
    if (G::is_irreversible(move)) {
      path_hashes_.clear();
      path_kept_history_ = false;
    }
    path_hashes_.push_back(pos.hash());
  }
  Node& leaf = nodes_[current];
  if (leaf.state == State::kPending) return false;
  selective_depth_ = std::max(selective_depth_, depth);
  if (leaf.state == State::kUnexpanded) {
    // Decided once per node: a node's path, and so its history, never changes.
    Outcome outcome = pos.outcome(params_.rules);
    if (!outcome.is_over() && ends_by_repetition(pos)) outcome = {G::result_on_repetition(pos), EndReason::kRepetition};
    if (outcome.is_over()) {
      leaf.state = State::kTerminal;
      leaf.terminal_value = static_cast<std::int8_t>(result_for(pos.side_to_move(), outcome.result));
      propagate_proof(current);
    }
  }
  if (leaf.state == State::kTerminal) {
    backup(current, Wdl::of_result(leaf.terminal_value, piece_lead<G>(pos)));
    return true;
  }
  // A twin elsewhere in the tree is expanded: so it was no win in one either.
  if (current != kRoot && expand_from_transposition(current, pos)) return true;
  PendingLeaf& pending = round.leaves_[round.count_++];
  pending.node = current;
  pending.position = pos;
  pending.moves.clear();
  pos.generate_moves(pending.moves);
  // A leaf whose mover wins in one is a proven win: exact, and no evaluation spent on it. The
  // root keeps its moves to choose from, and plays the winning one.
  const std::optional<Move> win = G::winning_move(pos, pending.moves);
  if (current == kRoot) root_win_in_one_ = win;
  if (current != kRoot && win) {
    --round.count_;
    leaf.state = State::kTerminal;
    leaf.terminal_value = 1;
    leaf.proof_plies = 1;
    propagate_proof(current);
    backup(current, Wdl::of_result(1, piece_lead<G>(pos)));
    return true;
  }
  leaf.state = State::kPending;
  add_in_flight(current, 1);
  return true;
}

// The root is never marked: its moves hold its proof (root_proof), its length taken when
// asked. Below it, a proven node is searched no further: its length is that of the proofs found by then.
template <typename G>
void BasicSearch<G>::propagate_proof(std::uint32_t node) {
  if (!params_.solver) return;
  const auto plies_after = [](const Node& child) {
    return static_cast<std::uint8_t>(std::min(child.proof_plies + 1, 255));
  };
  for (; node != kRoot && nodes_[node].parent != kRoot; node = nodes_[node].parent) {
    const Node& proven = nodes_[node];
    Node& parent = nodes_[proven.parent];
    const std::span<const Edge> moves = edges_of(parent);
    if (proven.terminal_value == -1) {  // the parent's mover wins by playing this move
      parent.terminal_value = 1;
      parent.proof_plies = plies_after(child(*fastest_proof_edge(parent)));
    } else if (proven.terminal_value == 1 &&
               std::ranges::all_of(moves, [&](const Edge& edge) { return child(edge).known_to_be(1); })) {
      parent.terminal_value = -1;  // a losing move, and so is every other: the loser holds out longest
      parent.proof_plies = plies_after(child(*longest_loss_edge(parent)));
    } else {
      return;  // a draw, or a loss beside moves not lost, proves nothing here
    }
    parent.state = State::kTerminal;
  }
}

template <typename G>
bool BasicSearch<G>::ends_by_repetition(const Position& pos) const {
  const int limit = G::repetition_limit(params_.rules);
  if (limit <= 0 || path_hashes_.empty()) return false;  // the root itself is the game's concern
  const std::uint64_t hash = pos.hash();
  // path_hashes_ ends with pos itself, counted once.
  int seen = static_cast<int>(std::count(path_hashes_.begin(), path_hashes_.end(), hash));
  if (path_kept_history_) seen += static_cast<int>(std::count(game_hashes_.begin(), game_hashes_.end(), hash));
  return seen >= limit;
}

template <typename G>
float BasicSearch<G>::forced_playouts(float prior, int parent_visits) const {
  return std::sqrt(params_.forced_playouts_k * prior * static_cast<float>(parent_visits));
}

template <typename G>
std::uint32_t BasicSearch<G>::child_of(std::uint32_t parent, std::uint32_t edge) {
  if (edges_[edge].node == 0) {
    edges_[edge].node = static_cast<std::uint32_t>(nodes_.size());
    Node& node = nodes_.emplace_back();
    node.parent = parent;
    node.edge = edge;
  }
  return edges_[edge].node;
}

template <typename G>
std::uint32_t BasicSearch<G>::select_edge(const Node& node, bool force) const {
  const int parent_visits = node.visits + node.in_flight;
  const std::span<const Edge> edges = edges_of(node);
  const bool restricted = &node == &nodes_[kRoot] && !root_moves_.empty();
  if (force) {
    for (std::uint32_t i = 0; i < edges.size(); ++i) {
      if (restricted && !root_allows(edges[i].move)) continue;
      const Node& chosen = child(edges[i]);
      const int n = chosen.visits + chosen.in_flight;
      if (n > 0 && n < forced_playouts(edges[i].prior(), parent_visits) && !chosen.known_to_be(1))
        return node.first_edge + i;
    }
  }
  const float exploration = exploration_scale(parent_visits);
  // One pass: visited children are scored as they come; unvisited ones all share the first-play
  // value, so the best of them is the one with the largest prior, scored once at the end.
  std::uint32_t best_visited = 0;
  float best_visited_score = -1e30f;
  std::uint32_t best_unvisited = 0;
  float best_unvisited_prior = -1.0f;
  float visited_prior = 0.0f;
  for (std::uint32_t i = 0; i < edges.size(); ++i) {
    const Edge& edge = edges[i];
    if (restricted && !root_allows(edge.move)) continue;
    const Node& chosen = child(edge);
    const int n = chosen.visits + chosen.in_flight;
    const float prior = edge.prior();
    if (n == 0) {
      if (prior > best_unvisited_prior) {
        best_unvisited_prior = prior;
        best_unvisited = i;
      }
      continue;
    }
    visited_prior += prior;
    // Virtual losses count as losses for the side choosing here; a move the solver proved is worth
    // its proof (beyond any lead's utility), not the mean of the visits it had before.
    const float q = params_.solver && chosen.state == State::kTerminal
                        ? -chosen.terminal_value * (1.0f + params_.lead_utility)
                        : (chosen.value_sum - chosen.in_flight) / n;
    const float score = q + exploration * prior / (1 + n);
    if (score > best_visited_score) {
      best_visited_score = score;
      best_visited = i;
    }
  }
  const float parent_q = node.visits > 0 ? -node.value_sum / node.visits : 0.0f;
  const float fpu = parent_q - params_.fpu_reduction * std::sqrt(visited_prior);
  const bool unvisited = best_unvisited_prior >= 0.0f && fpu + exploration * best_unvisited_prior > best_visited_score;
  return node.first_edge + (unvisited ? best_unvisited : best_visited);
}

template <typename G>
void BasicSearch<G>::add_in_flight(std::uint32_t leaf, int delta) {
  for (std::uint32_t node = leaf;; node = nodes_[node].parent) {
    nodes_[node].in_flight += delta;
    if (node == kRoot) return;
  }
}

template <typename G>
void BasicSearch<G>::backup(std::uint32_t leaf, const Wdl& value) {
  // The side that moved into a node sees the negation of its side to move's value and lead.
  float for_mover = -utility(value);
  float lead_for_mover = -value.lead;
  for (std::uint32_t index = leaf;; index = nodes_[index].parent) {
    Node& node = nodes_[index];
    node.visits += 1;
    node.value_sum += for_mover;
    node.value_square_sum += for_mover * for_mover;
    node.draw_sum += value.draw;
    node.lead_sum += lead_for_mover;
    for_mover = -for_mover;
    lead_for_mover = -lead_for_mover;
    if (index == kRoot) return;
  }
}

template <typename G>
std::optional<Wdl> BasicSearch<G>::mean_wdl(const Node& node) const {
  if (node.visits == 0) return std::nullopt;
  const float n = static_cast<float>(node.visits);
  const float lead = -node.lead_sum / n;
  // A finished game, or one the solver proved: its result is known.
  if (node.state == State::kTerminal) return Wdl::of_result(node.terminal_value, lead);
  const float draw = std::clamp(node.draw_sum / n, 0.0f, 1.0f);
  const float expectation = std::clamp(-node.value_sum / n - params_.lead_utility * lead, draw - 1.0f, 1.0f - draw);
  return Wdl{
      .win = (1.0f - draw + expectation) / 2, .draw = draw, .loss = (1.0f - draw - expectation) / 2, .lead = lead};
}

template <typename G>
void BasicSearch<G>::expand(std::uint32_t index, PendingLeaf& leaf) {
  const auto first = static_cast<std::uint32_t>(edges_.size());
  const int count = leaf.moves.size();
  Node& node = nodes_[index];
  node.first_edge = first;
  node.num_edges = static_cast<std::uint16_t>(count);
  node.state = State::kExpanded;
  std::array<float, G::kMaxMoves>& priors = leaf.priors;
  if (params_.policy_temperature != 1.0f) {
    const float exponent = 1.0f / params_.policy_temperature;
    float total = 0.0f;
    for (int i = 0; i < count; ++i) total += priors[i] = std::pow(priors[i], exponent);
    if (total > 0.0f)
      for (int i = 0; i < count; ++i) priors[i] /= total;
  }
  for (int i = 0; i < count; ++i) {
    Edge& edge = edges_.emplace_back();
    edge.move = leaf.moves[i];
    edge.set_prior(priors[i]);
  }
}

template <typename G>
bool BasicSearch<G>::expand_from_transposition(std::uint32_t leaf, const Position& pos) {
  if (!params_.transpositions) return false;
  const auto found = expanded_positions_.find(G::transposition_key(pos));
  if (found == expanded_positions_.end()) return false;
  const Node& twin = nodes_[found->second];
  if (twin.state != State::kExpanded || twin.visits == 0) return false;
  const std::optional<Wdl> value = mean_wdl(twin);
  // Within the capacity the round made room for: the twin's edges stay where they are.
  const auto first = static_cast<std::uint32_t>(edges_.size());
  for (std::uint32_t i = 0; i < twin.num_edges; ++i)
    edges_.push_back(
        {.move = edges_[twin.first_edge + i].move, .prior_steps = edges_[twin.first_edge + i].prior_steps});
  Node& node = nodes_[leaf];
  node.first_edge = first;
  node.num_edges = twin.num_edges;
  node.state = State::kExpanded;
  backup(leaf, *value);
  return true;
}

template <typename G>
void BasicSearch<G>::remember_position(std::uint32_t node, const Position& pos) {
  if (params_.transpositions) expanded_positions_.try_emplace(G::transposition_key(pos), node);
}

template <typename G>
void BasicSearch<G>::apply_evaluations(Round& round) {
  for (int i = 0; i < round.count_; ++i) {
    PendingLeaf& leaf = round.leaves_[i];
    expand(leaf.node, leaf);
    remember_position(leaf.node, leaf.position);
    nodes_[leaf.node].network_value = NetworkWdl::of(leaf.value);
    add_in_flight(leaf.node, -1);
    backup(leaf.node, leaf.value);
    if (leaf.node == kRoot) add_root_noise();
  }
  round.count_ = 0;
}

template <typename G>
void BasicSearch<G>::discard_pending(Round& round) {
  for (int i = 0; i < round.count_; ++i) {
    const std::uint32_t node = round.leaves_[i].node;
    nodes_[node].state = State::kUnexpanded;
    add_in_flight(node, -1);
  }
  round.count_ = 0;
}

template <typename G>
void BasicSearch<G>::add_root_noise() {
  root_noised_ = true;
  const Node& root = nodes_[kRoot];
  if (params_.dirichlet_weight <= 0.0f || root.num_edges < 2) return;
  std::gamma_distribution<float> gamma(params_.dirichlet_alpha, 1.0f);
  std::array<float, G::kMaxMoves> noise;
  float total = 0.0f;
  for (int i = 0; i < root.num_edges; ++i) total += noise[i] = gamma(rng_);
  if (total <= 0.0f) return;
  root_priors_before_noise_.resize(root.num_edges);
  for (int i = 0; i < root.num_edges; ++i) {
    Edge& edge = edges_[root.first_edge + i];
    root_priors_before_noise_[i] = edge.prior();
    edge.set_prior((1.0f - params_.dirichlet_weight) * edge.prior() + params_.dirichlet_weight * noise[i] / total);
  }
}

template <typename G>
typename BasicSearch<G>::SearchResult BasicSearch<G>::result() const {
  SearchResult result;
  const Node& root = nodes_[kRoot];
  result.total_visits = root.visits;
  result.selective_depth = selective_depth_;
  const std::optional<RootProof> proof = root_proof();
  if (proof && proof->plies > 0) result.winning_move = proof->move;
  if (params_.solver && proof) result.proven_plies = proof->plies;
  result.value = root.state == State::kTerminal ? root.terminal_value
                 : result.proven_plies          ? (*result.proven_plies > 0 ? 1.0f : -1.0f)
                 : root.visits > 0              ? -root.value_sum / root.visits
                                                : 0.0f;
  result.root_network_value = root.network_value.get();
  result.root_search_value = mean_wdl(root);
  if (result.proven_plies && result.root_search_value)
    result.root_search_value = Wdl::of_result(*result.proven_plies > 0 ? 1 : -1, result.root_search_value->lead);
  const std::span<const Edge> root_edges = edges_of(root);
  for (std::uint32_t i = 0; i < root_edges.size(); ++i) {
    const Edge& edge = root_edges[i];
    if (!root_allows(edge.move)) continue;
    const Node& child = this->child(edge);
    result.moves.push_back(edge.move);
    result.visits.push_back(child.visits);
    result.priors.push_back(edge.prior());
    result.network_priors.push_back(i < root_priors_before_noise_.size() ? root_priors_before_noise_[i] : edge.prior());
    result.explorations.push_back(exploration_scale(root.visits) * edge.prior() / (1 + child.visits));
    result.values.push_back(child.state == State::kTerminal ? -child.terminal_value
                            : child.visits > 0               ? child.value_sum / child.visits
                                                             : 0.0f);
    result.lower_bounds.push_back(lower_bound(child));
    result.network_values.push_back(movers_view(child.network_value.get()));
    result.search_values.push_back(movers_view(mean_wdl(child)));
    const bool proven = params_.solver && child.state == State::kTerminal && child.terminal_value != 0;
    result.proven_plies_after.push_back(proven ? std::optional(-child.terminal_value * (1 + child.proof_plies))
                                               : std::nullopt);
  }
  result.policy_target = forces_playouts() && root_moves_.empty() ? pruned_root_visits() : result.visits;
  result.chosen_move = move_to_play();
  if (!result.moves.empty()) result.principal_variation = line_after(result.best_move()).moves;
  return result;
}

template <typename G>
typename BasicSearch<G>::Line BasicSearch<G>::line_after(Move move) const {
  Line line;
  const std::optional<std::uint32_t> after = chosen_child(kRoot, move);
  line.moves.push_back(move);
  line.visits.push_back(after ? nodes_[*after].visits : 0);
  // On through positions the solver proved (their moves stay): the fastest win where won, the
  // longest loss where lost.
  for (const Node* node = after ? &nodes_[*after] : nullptr; node && node->num_edges > 0;) {
    const Edge* best = node->known_to_be(1)    ? fastest_proof_edge(*node)
                       : node->known_to_be(-1) ? longest_loss_edge(*node)
                                               : most_visited_edge(*node);
    if (!best || child(*best).visits == 0) break;
    node = &child(*best);
    line.moves.push_back(best->move);
    line.visits.push_back(node->visits);
  }
  return line;
}

template <typename G>
std::vector<typename BasicSearch<G>::TreeNode> BasicSearch<G>::visited_tree(int min_visits) const {
  min_visits = std::max(min_visits, 1);
  std::vector<TreeNode> tree;
  std::vector<std::uint32_t> node_of;  // by place in the list
  const Node& root = nodes_[kRoot];
  if (root.visits < min_visits) return tree;
  tree.push_back({.parent = 0, .visits = root.visits});
  node_of.push_back(kRoot);
  for (std::size_t place = 0; place < tree.size(); ++place) {
    const Node& node = nodes_[node_of[place]];
    if (node.state != State::kExpanded) continue;
    for (const Edge& edge : edges_of(node)) {
      const Node& next = child(edge);
      if (next.visits < min_visits) continue;
      // A proven node (the solver's) was evaluated before its proof; a finished game never is.
      const bool finished = next.state == State::kTerminal && !next.network_value.known;
      tree.push_back({.parent = place, .move = edge.move, .visits = next.visits, .finished = finished});
      node_of.push_back(edge.node);
    }
  }
  return tree;
}

template <typename G>
std::optional<typename G::Move> BasicSearch<G>::lcb_move() const {
  const Node& root = nodes_[kRoot];
  if (root.state != State::kExpanded || root.num_edges == 0) return std::nullopt;
  int most = 0;
  for (const Edge& edge : edges_of(root))
    if (!root_choice_excludes(edge)) most = std::max(most, child(edge).visits);
  const int enough = std::max(2, most / 10);
  const Edge* best = nullptr;
  float best_bound = 0.0f;
  for (const Edge& edge : edges_of(root)) {
    const Node& child = this->child(edge);
    const std::optional<float> bound = lower_bound(child);
    if (child.visits < enough || !bound || root_choice_excludes(edge)) continue;
    if (!best || *bound > best_bound) best = &edge, best_bound = *bound;
  }
  if (!best) return std::nullopt;
  return best->move;
}

template <typename G>
std::optional<float> BasicSearch<G>::lower_bound(const Node& child) const {
  if (params_.lcb_stdevs <= 0.0f || child.visits < 2) return std::nullopt;
  if (child.state == State::kTerminal) return -child.terminal_value;  // known exactly
  const float n = static_cast<float>(child.visits), mean = child.value_sum / n;
  const float variance = std::max(0.0f, child.value_square_sum / n - mean * mean);
  return mean - params_.lcb_stdevs * std::sqrt(variance / n);
}

template <typename G>
bool BasicSearch<G>::root_allows(Move move) const {
  return root_moves_.empty() || std::find(root_moves_.begin(), root_moves_.end(), move) != root_moves_.end();
}

// KataGo's policy target pruning: every child but the most visited gives back as many of its
// forced playouts as it can while PUCT, at its fewer visits, would still not prefer it to the most
// visited one; a child so left with a single visit drops out.
template <typename G>
std::vector<int> BasicSearch<G>::pruned_root_visits() const {
  const Node& root = nodes_[kRoot];
  const std::span<const Edge> edges = edges_of(root);
  std::vector<int> target(edges.size());
  if (edges.empty()) return target;
  const auto most = std::max_element(edges.begin(), edges.end(), [&](const Edge& a, const Edge& b) {
    return child(a).visits < child(b).visits;
  });
  const Node& most_visited = child(*most);
  if (most_visited.visits == 0) return target;
  const float exploration = exploration_scale(root.visits);
  const float best_score =
      most_visited.value_sum / most_visited.visits + exploration * most->prior() / (1 + most_visited.visits);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Node& child = this->child(edges[i]);
    target[i] = child.visits;
    if (&edges[i] == &*most || child.visits == 0) continue;
    const float q = child.value_sum / child.visits;
    const float prior = edges[i].prior();
    // The visits at which PUCT would score this child level with the most visited one.
    const float level = best_score > q ? exploration * prior / (best_score - q) - 1 : child.visits;
    const float surplus = std::min(forced_playouts(prior, root.visits), child.visits - level);
    if (surplus < 1) continue;
    target[i] -= static_cast<int>(surplus);
    if (target[i] <= 1) target[i] = 0;
  }
  return target;
}

template <typename G>
void search_round(std::span<BasicSearch<std::type_identity_t<G>>* const> searches, BasicEvaluator<G>& evaluator,
                  std::vector<BasicEvalRequest<std::type_identity_t<G>>>& requests) {
  requests.clear();
  for (BasicSearch<G>* search : searches)
    if (!search->done()) search->collect_leaves(requests);
  try {
    if (!requests.empty()) evaluator.evaluate(requests);
  } catch (...) {
    for (BasicSearch<G>* search : searches) search->discard_pending();
    throw;
  }
  for (BasicSearch<G>* search : searches) search->apply_evaluations();
}

template <typename G>
void run_searches(std::span<BasicSearch<std::type_identity_t<G>>* const> searches, BasicEvaluator<G>& evaluator,
                  const std::function<void()>& after_round) {
  std::vector<BasicEvalRequest<G>> requests;
  for (BasicSearch<G>* search : searches) search->begin();
  while (std::any_of(searches.begin(), searches.end(), [](const BasicSearch<G>* search) { return !search->done(); })) {
    search_round<G>(searches, evaluator, requests);
    if (after_round) after_round();
  }
}

template <typename G>
typename G::Move choose_move(const BasicSearchResult<G>& result, float temperature, std::mt19937_64& rng) {
  if (!(temperature >= 0.0f) || !std::isfinite(temperature))
    throw std::invalid_argument("temperature " + std::to_string(temperature) + " is not a finite number >= 0");
  const std::vector<int>& visits = result.policy_target;
  const int most = visits.empty() ? 0 : *std::max_element(visits.begin(), visits.end());
  // A proven root is played by its proof: no temperature gives up a win, or a longer loss.
  if (temperature == 0.0f || most == 0 || result.proven_plies) return result.best_move();
  // Relative to the most visited move, so that a small temperature cannot overflow: weights in [0, 1].
  // A move proven to lose is not sampled (the root is not proven lost: another move is not).
  std::vector<double> weights(visits.size());
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const bool loses = i < result.proven_plies_after.size() && result.proven_plies_after[i].value_or(0) < 0;
    weights[i] = loses ? 0.0 : std::pow(static_cast<double>(visits[i]) / most, 1.0 / temperature);
  }
  if (std::ranges::all_of(weights, [](double w) { return w == 0.0; })) return result.best_move();
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  return result.moves[pick(rng)];
}

}  // namespace ataxx
