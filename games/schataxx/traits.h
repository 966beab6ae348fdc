// Schataxx and its variants, as the pipeline plays them: the types and facts of the contract in
// games/game_type.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/opening_file.h"
#include "games/schataxx/chunk.h"
#include "games/schataxx/encoder.h"
#include "games/schataxx/game.h"
#include "games/schataxx/play.h"
#include "games/schataxx/view.h"

namespace ataxx {

struct SchataxxGame {
  using Game = schataxx::Game;
  using Position = schataxx::Position;
  using Move = schataxx::Move;
  using MoveList = schataxx::MoveList;
  using Rules = schataxx::Rules;
  using Encoder = schataxx::Encoder;
  using Play = schataxx::Play;
  using View = schataxx::View;
  using Chunk = schataxx::Chunk;
  static constexpr std::string_view kName = "schataxx";
  static constexpr std::string_view kTitle = "Schataxx";
  static std::string move_help(const Position&) { return "a1b2, drops Q@g8, 0000 (pass)"; }
  static constexpr std::array<std::string_view, 3> kVariants = {"schataxx", "schataxx-balanced", "schataxx-unlimited"};
  static constexpr std::array<std::string_view, 3> kVariantTitles = {"standard", "balanced", "unlimited stock"};
  static constexpr bool kHasBoards = false;  // one board
  static constexpr int kMaxMoves = schataxx::kMaxMoves;
  static Position start() { return Position::startpos(); }
  // The starts of self-play and gating: the variant's start and its opening suite (file's
  // positions, or the variant's own suite when "").
  static Position start_of(std::string_view variant) { return Position::startpos(schataxx::parse_variant(variant)); }
  static std::vector<Position> openings_of(std::string_view variant, const std::string& file) {
    const schataxx::Variant v = schataxx::parse_variant(variant);
    if (file.empty()) return schataxx::opening_suite(v);
    return load_openings<Position>(file, [v](const std::string& fen) { return Position::from_fen(fen, v); });
  }
  static Position from_fen(std::string_view fen, std::string_view variant) {
    return Position::from_fen(fen, schataxx::parse_variant(variant));
  }
  static bool claims_fen(std::string_view fen) { return fen.find('[') != std::string_view::npos; }  // the stocks
  static bool is_irreversible(Move move) { return move.is_drop(); }  // a stock changes for good
  static int repetition_limit(const Rules& rules) { return rules.repetition_limit; }
  static Result result_on_repetition(const Position& pos) { return pos.result_by_area(); }
  // The plies since the last drop in the halfmove limit's place.
  static Rules rules_from(const RuleSettings& s) { return {s.halfmove_limit, s.repetition_limit}; }
  static RuleSettings settings_of(const Rules& rules) { return {rules.ply_limit, rules.repetition_limit}; }
  static std::uint64_t perft(const Position& pos, int depth) { return schataxx::perft(pos, depth); }
  static std::vector<std::pair<Move, std::uint64_t>> perft_split(const Position& pos, int depth) {
    return schataxx::perft_split(pos, depth);
  }
  static std::string move_text(Move move, const Position&) { return schataxx::to_string(move); }
  static Move parse_move_text(std::string_view text, const Position&) { return schataxx::parse_move(text); }
  static Bitboard men(const Position& pos, Color side) { return pos.men(side); }
  static int cells(const Position&) { return schataxx::Position::kSquares; }
  static Bitboard gaps(const Position&) { return 0; }
  static std::string board_name(const Position&) { return "8x8"; }
  // A king or half the board in one move: the tactics a net at a few hundred visits misses.
  static std::optional<Move> winning_move(const Position& pos, const MoveList& moves) { return pos.winning_move(moves); }
  static std::uint64_t transposition_key(const Position& pos) { return schataxx::transposition_key(pos); }
  static constexpr std::string_view kSideNames[2] = {"White", "Black"};
  // PGN as for chess variants: White moves first, a Variant tag names the variant.
  static constexpr std::string_view kPgnColours[2] = {"White", "Black"};
  static std::string pgn_variant(const Position& pos) { return std::string(schataxx::variant_name(pos.variant())); }
};

}  // namespace ataxx
