// The contract of a game: what the search, self-play, the trainer, the players and the views use
// of it, checked by the compiler. A game is a struct of types and static functions (the game's
// traits, games/<game>/traits.h) over a position, a move and a game record of its own;
// games/registry.h lists the games the programs play.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/core/bitboard.h"
#include "games/core/chunk_bytes.h"
#include "games/core/network_io.h"
#include "games/core/outcome.h"
#include "games/core/symmetries.h"

namespace ataxx {

// How the network sees a game (nn/, trainer/): made from the boards a network plays where the game
// has boards (kHasBoards), default-made otherwise.
template <typename E, typename G>
concept GameEncoderOf = requires(const E& encoder, const typename G::Position& pos, typename G::Move move,
                                 std::span<float> planes, const std::string& model, int n) {
  { encoder.io() } -> std::same_as<NetworkIo>;              // the network's planes and canvas
  { encoder.plays(pos) } -> std::same_as<bool>;             // whether the network plays pos's board
  { encoder.plays_what() } -> std::same_as<std::string>;    // what it plays, for messages
  { encoder.check(pos, model) };                            // throws std::invalid_argument where it does not
  { encoder.encode(pos, planes) };                          // the input planes: io().input_size() floats
  { encoder.policy_index(pos, move) } -> std::convertible_to<int>;  // the move's entry in the policy
  { encoder.key(pos) } -> std::convertible_to<std::uint64_t>;       // the evaluation cache's: all encode reads
  // Training's augmentation: the symmetries a sample may be seen under, the sample under one of
  // them, and where a cell of the board lands on the canvas then (the ownership target).
  { encoder.augmentations(pos) } -> std::same_as<SymmetryList>;
  { encoder.transformed(n, pos) } -> std::same_as<typename G::Position>;
  { encoder.transformed(n, pos, move) } -> std::same_as<typename G::Move>;
  { encoder.canvas_cell(n, pos, n) } -> std::convertible_to<int>;
};

// How players play a game (players/): the network player's defaults, measured per game
// (docs/experiments.md), the clock's estimate, and what the baselines (greedy, alphabeta, mcts)
// judge by.
template <typename P, typename G>
concept GamePlayOf = requires(const typename G::Position& pos, typename G::Move move) {
  { P::kPolicyTemperature } -> std::convertible_to<float>;  // the network player's, unless its spec says ptemp
  { P::kLcbStdevs } -> std::convertible_to<float>;  // its final move's lower confidence bound (0: most visits)
  { P::kSolver } -> std::convertible_to<bool>;      // whether its search proves wins and losses (MCTS-Solver)
  { P::c_puct(pos) } -> std::same_as<std::optional<float>>;  // its c_puct at a root (none: the search's)
  { P::expected_moves_left(pos) } -> std::convertible_to<int>;  // the time manager's, for the side to move
  { P::kAlphaBetaDepth } -> std::convertible_to<int>;     // alphabeta's depth unless its spec says one
  { P::kTerminalDepth } -> std::convertible_to<int>;      // its depth in `play` where no net plays the position
  { P::kCentipawnsAPoint } -> std::convertible_to<int>;   // a point of score in UAI's centipawns
  { P::score(pos) } -> std::convertible_to<int>;          // alphabeta's evaluation, the side to move's view
  { P::order_gain(pos, move) } -> std::convertible_to<int>;   // its move ordering: the larger first
  { P::table_key(pos) } -> std::convertible_to<std::uint64_t>;  // its transposition table's key
  { P::greedy_value(pos, move) } -> std::convertible_to<int>;   // what greedy maximises
  // The mcts baseline's evaluator: its name (eval=NAME), a move's prior as a logit, the value as
  // an expectation in [-1, 1] for the side to move.
  { P::kHeuristicName } -> std::convertible_to<std::string_view>;
  { P::heuristic_prior_logit(pos, move) } -> std::convertible_to<float>;
  { P::heuristic_expectation(pos) } -> std::convertible_to<float>;
};

// What the browser view draws (server/), as JSON: the page knows no rules, every move it offers
// comes from here. (Checked by the functions' types: the JSON type is only declared here.)
template <typename V, typename G, typename Json = nlohmann::json, typename P = typename G::Position>
concept GameViewOf = requires(typename G::Move move) {
  { V::kColours[0] } -> std::convertible_to<const char*>;  // the sides as the page names them
  // {"name", "hexagonal", "size", "cells": [{"index", "column", "row", "name"}, ...]}
  requires std::same_as<decltype(&V::board), Json (*)(const P&)>;
  requires std::same_as<decltype(&V::men), Json (*)(const P&)>;  // {"CELL": what stands there, ...}
  // The ways the page offers to make the move: [{"from", "to", "kind"}, ...]
  requires std::same_as<decltype(&V::ways), Json (*)(typename G::Move, const P&)>;
  requires std::same_as<decltype(&V::counts), Json (*)(const P&)>;  // what the page shows beside the board
  { V::destination(move) } -> std::convertible_to<int>;  // the cell it lands on (-1: none)
  requires std::same_as<decltype(&V::diagram), std::string (*)(const P&)>;  // the terminal's (`play`)
};

// How self-play's chunks (selfplay/training_data.h) hold a game's positions and moves, in each
// version of its chunks; what every game's samples share is written by the chunk's writer.
template <typename C, typename G>
concept GameChunkOf = requires(const typename G::Position& pos, typename G::Move move, std::string& out,
                               ByteReader& in, std::string_view magic, int version) {
  { C::kMagic } -> std::convertible_to<std::string_view>;  // of the chunks it writes: 4 bytes
  { C::version_of(magic) } -> std::convertible_to<int>;    // of a chunk's magic; 0: another game's
  { C::layout(version) } -> std::same_as<ChunkLayout>;
  { C::put_position(out, pos) };
  { C::read_position(in, version) } -> std::same_as<typename G::Position>;  // throws std::invalid_argument
  { C::cells(pos) } -> std::same_as<Bitboard>;             // where final men may stand
  { C::put_move(out, move) };
  // A sample's moves, each checked against its position (throws std::invalid_argument).
  { typename C::MoveReader(pos, version).read(in) } -> std::same_as<typename G::Move>;
};

template <typename G>
concept GameType = requires(const typename G::Position& pos, typename G::Position& next, typename G::Move move,
                            typename G::MoveList& moves, const typename G::Game& game, typename G::Game& record,
                            const typename G::Rules& rules, const RuleSettings& settings, std::string_view text,
                            Color side) {
  // The position: copied freely (the search keeps one a node it expands), played by make_move,
  // compared (a player's tree is kept while the game it follows goes on).
  requires std::copyable<typename G::Position>;
  requires std::equality_comparable<typename G::Position>;
  { pos.side_to_move() } -> std::same_as<Color>;
  { pos.hash() } -> std::convertible_to<std::uint64_t>;  // Zobrist: the repetition rule and the caches
  { pos.fen() } -> std::same_as<std::string>;             // logs, chunks, UAI, the browser view
  { pos.generate_moves(moves) };                           // every legal move, a pass where it must
  { pos.outcome(rules) } -> std::same_as<Outcome>;         // over by the board alone (not repetition)
  { next.make_move(move) };                                // a legal move, in place
  { pos.is_legal(move) } -> std::same_as<bool>;            // a match checks each player's move
  // The move: compared; the pass, where a side with no move passes, or else a move no position
  // allows (the search's edge before it is given one).
  requires std::equality_comparable<typename G::Move>;
  { G::Move::pass() } -> std::same_as<typename G::Move>;
  { move.is_pass() } -> std::same_as<bool>;
  // The move list: filled by generate_moves, at most kMaxMoves, read by index.
  { moves.size() } -> std::convertible_to<int>;
  { moves[0] } -> std::convertible_to<typename G::Move>;
  { G::kMaxMoves } -> std::convertible_to<int>;

  // The game record: its start, its moves, the rules it is played under and its outcome, the
  // repetition rule included.
  { game.position() } -> std::same_as<const typename G::Position&>;
  { game.start() } -> std::same_as<const typename G::Position&>;
  { game.moves() } -> std::same_as<const std::vector<typename G::Move>&>;
  { game.rules() } -> std::same_as<const typename G::Rules&>;
  { game.outcome() } -> std::same_as<Outcome>;
  { game.recent_hashes() } -> std::convertible_to<std::span<const std::uint64_t>>;  // the search's repetitions
  { record.play(move) };  // throws std::invalid_argument for an illegal move
  { record.play(text) };  // the same, in the game's notation (UAI, the browser view)

  // Its name in model files and chunks ("ataxx", "schataxx"), and the names its variants go by in
  // run configs (run.game), UCI_Variant and the browser view, its own name first.
  { G::kName } -> std::convertible_to<std::string_view>;
  { G::kTitle } -> std::convertible_to<std::string_view>;  // in prose: "Ataxx"
  { G::kVariants[0] } -> std::convertible_to<std::string_view>;
  requires G::kVariants[0] == G::kName;
  requires G::kVariantTitles.size() == G::kVariants.size();  // each variant in the browser view's words
  { G::kHasBoards } -> std::convertible_to<bool>;  // whether a run chooses among boards (boards:)
  { G::start() } -> std::same_as<typename G::Position>;  // the default start
  // Where self-play and gating start: by the name of a board (a game with boards) or of a variant,
  // its start position and its opening suite (a file's, or the game's own for "").
  { G::start_of(text) } -> std::same_as<typename G::Position>;
  { G::openings_of(text, std::string()) } -> std::same_as<std::vector<typename G::Position>>;
  // A position from its FEN, of the board or variant named (where the FEN does not say it: UAI's
  // UCI_Variant, the browser view); throws std::invalid_argument for a bad FEN or name. Whether a
  // FEN is this game's by its look (UAI's `position fen` takes the first game that claims it).
  { G::from_fen(text, text) } -> std::same_as<typename G::Position>;
  { G::claims_fen(text) } -> std::same_as<bool>;
  // The end-of-game numbers: run configs and model files keep every game's as RuleSettings.
  { G::rules_from(settings) } -> std::same_as<typename G::Rules>;
  { G::settings_of(rules) } -> std::same_as<RuleSettings>;
  { G::repetition_limit(rules) } -> std::convertible_to<int>;
  { G::result_on_repetition(pos) } -> std::same_as<Result>;
  // After such a move no earlier position can recur: the search's repetition window starts there.
  { G::is_irreversible(move) } -> std::same_as<bool>;
  // The search: a move that wins at once (the leaf is taken as won unevaluated), and the key under
  // which two positions alike in all the search and the network see share a node.
  { G::winning_move(pos, moves) } -> std::same_as<std::optional<typename G::Move>>;
  { G::transposition_key(pos) } -> std::same_as<std::uint64_t>;
  // The leaves of the legal move tree below pos, in all and below each move (perft; the
  // repetition rule, which needs the game's history, is left out).
  { G::perft(pos, 1) } -> std::convertible_to<std::uint64_t>;
  { G::perft_split(pos, 1) } -> std::same_as<std::vector<std::pair<typename G::Move, std::uint64_t>>>;
  // Moves in the game's notation (UAI, PGN, chunks' logs, the browser view); parse throws on bad text.
  { G::move_text(move, pos) } -> std::same_as<std::string>;
  { G::parse_move_text(text, pos) } -> std::same_as<typename G::Move>;
  { G::move_help(pos) } -> std::same_as<std::string>;  // the notation by example, for help texts
  // The men of a side and the cells of the board: the network's lead head and the score lead.
  { G::men(pos, side) } -> std::same_as<Bitboard>;
  { G::cells(pos) } -> std::convertible_to<int>;
  { G::gaps(pos) } -> std::same_as<Bitboard>;           // cells no man may stand on
  { G::board_name(pos) } -> std::same_as<std::string>;  // "7x7", "hexagon": messages and the browser view
  // Reports and PGN: each side's name, its PGN colour, and the Variant tag ("" for none).
  { G::kSideNames[0] } -> std::convertible_to<std::string_view>;
  { G::kPgnColours[0] } -> std::convertible_to<std::string_view>;
  { G::pgn_variant(pos) } -> std::same_as<std::string>;
  requires GameEncoderOf<typename G::Encoder, G>;
  requires GamePlayOf<typename G::Play, G>;
  requires GameViewOf<typename G::View, G>;
  requires GameChunkOf<typename G::Chunk, G>;
};

// The start of the game or variant named `name`: a game with boards starts on its default board.
template <GameType G>
typename G::Position start_of_variant(std::string_view name) {
  if constexpr (G::kHasBoards)
    return G::start();
  else
    return G::start_of(name);
}

// The side to move's lead in men, (own - opponent) / cells: what the network's lead head
// (Wdl::lead) expects at the end of the game.
template <GameType G>
float piece_lead(const typename G::Position& pos) {
  const Color us = pos.side_to_move();
  return static_cast<float>(popcount(G::men(pos, us)) - popcount(G::men(pos, ~us))) / G::cells(pos);
}

}  // namespace ataxx
