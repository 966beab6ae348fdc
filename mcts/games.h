// The games the search plays. The search, its evaluator seam and its players are written once,
// against one of these: each names its game, position, move and move-list types and its rules,
// and says the few facts the search needs beyond what a position does itself (generate_moves,
// make_move, hash, side_to_move, outcome).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "game/game.h"
#include "schataxx/game.h"

namespace ataxx {

struct AtaxxGame {
  using Game = ataxx::Game;
  using Position = ataxx::Position;
  using Move = ataxx::Move;
  using MoveList = ataxx::MoveList;
  using Rules = RuleSettings;
  static constexpr std::string_view kName = "ataxx";
  static constexpr int kMaxMoves = ataxx::kMaxMoves;
  static Position start() { return Position::startpos(); }
  // After such a move no earlier position can recur: a single adds a piece for good.
  static bool is_irreversible(Move move) { return move.is_single(); }
  static int repetition_limit(const Rules& rules) { return rules.repetition_limit; }
  // Who wins when a repetition ends the game: the pieces are counted.
  static Result result_on_repetition(const Position& pos) { return pos.result_by_count(); }
  // Model files and run configs keep every game's end-of-game numbers as RuleSettings.
  static Rules rules_from(const RuleSettings& settings) { return settings; }
  static RuleSettings settings_of(const Rules& rules) { return rules; }
  static std::string move_text(Move move, const Position& pos) { return to_string(move, pos.board()); }
  static Move parse_move_text(std::string_view text, const Position& pos) { return parse_move(text, pos.board()); }
  static Bitboard men(const Position& pos, Color side) { return pos.pieces(side); }
  static int cells(const Position& pos) { return pos.board().num_cells; }
  // Whether the search should take a leaf as won by its mover without evaluating it. Ataxx's wins
  // in one (the last enemy pieces taken) are rare, and the check would cost every leaf.
  static std::optional<Move> winning_move(const Position&, const MoveList&) { return std::nullopt; }
  // Positions alike in all the search and the network see: the board, the side to move, the clock.
  static std::uint64_t transposition_key(const Position& pos) {
    std::uint64_t clock = static_cast<std::uint64_t>(pos.halfmove_clock());
    return pos.hash() ^ zobrist::splitmix64(clock);
  }
  // The sides as match reports name them: the first mover's, then the other's.
  static constexpr std::string_view kSideNames[2] = {"x", "o"};
  // PGN, as the Ataxx tool chain writes it: x is Black; no Variant tag.
  static constexpr std::string_view kPgnColours[2] = {"Black", "White"};  // x's, o's
  static std::string pgn_variant(const Position&) { return ""; }
};

struct SchataxxGame {
  using Game = schataxx::Game;
  using Position = schataxx::Position;
  using Move = schataxx::Move;
  using MoveList = schataxx::MoveList;
  using Rules = schataxx::Rules;
  static constexpr std::string_view kName = "schataxx";
  static constexpr int kMaxMoves = schataxx::kMaxMoves;
  static Position start() { return Position::startpos(); }
  static bool is_irreversible(Move move) { return move.is_drop(); }  // a stock changes for good
  static int repetition_limit(const Rules& rules) { return rules.repetition_limit; }
  static Result result_on_repetition(const Position& pos) { return pos.result_by_area(); }
  // The plies since the last drop in the halfmove limit's place.
  static Rules rules_from(const RuleSettings& s) { return {s.halfmove_limit, s.repetition_limit}; }
  static RuleSettings settings_of(const Rules& rules) { return {rules.ply_limit, rules.repetition_limit}; }
  static std::string move_text(Move move, const Position&) { return schataxx::to_string(move); }
  static Move parse_move_text(std::string_view text, const Position&) { return schataxx::parse_move(text); }
  static Bitboard men(const Position& pos, Color side) { return pos.men(side); }
  static int cells(const Position&) { return schataxx::Position::kSquares; }
  // A king or half the board in one move: the tactics a net at a few hundred visits misses.
  static std::optional<Move> winning_move(const Position& pos, const MoveList& moves) { return pos.winning_move(moves); }
  // The plies since the last drop and the ply itself (the balanced variant's first plies differ).
  static std::uint64_t transposition_key(const Position& pos) {
    std::uint64_t state =
        static_cast<std::uint64_t>(pos.plies_since_drop()) << 32 | static_cast<std::uint32_t>(pos.ply());
    return pos.hash() ^ zobrist::splitmix64(state);
  }
  static constexpr std::string_view kSideNames[2] = {"White", "Black"};
  // PGN as for chess variants: White moves first, a Variant tag names the variant.
  static constexpr std::string_view kPgnColours[2] = {"White", "Black"};
  static std::string pgn_variant(const Position& pos) { return std::string(schataxx::variant_name(pos.variant())); }
};

// The side to move's lead in men, (own - opponent) / cells: what the network's lead head
// (Wdl::lead) expects at the end of the game.
template <typename G>
float piece_lead(const typename G::Position& pos) {
  const Color us = pos.side_to_move();
  return static_cast<float>(popcount(G::men(pos, us)) - popcount(G::men(pos, ~us))) / G::cells(pos);
}

}  // namespace ataxx
