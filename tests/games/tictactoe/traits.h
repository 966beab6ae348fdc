// Tic-tac-toe as the pipeline plays it: the contract of games/game_type.h, for the tests' registry.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/core/opening_file.h"
#include "tests/games/tictactoe/chunk.h"
#include "tests/games/tictactoe/encoder.h"
#include "tests/games/tictactoe/game.h"
#include "tests/games/tictactoe/play.h"
#include "tests/games/tictactoe/view.h"

namespace ataxx {

struct TicTacToeGame {
  using Game = tictactoe::Game;
  using Position = tictactoe::Position;
  using Move = tictactoe::Move;
  using MoveList = tictactoe::MoveList;
  using Rules = tictactoe::Rules;
  using Encoder = tictactoe::Encoder;
  using Play = tictactoe::Play;
  using View = tictactoe::View;
  using Chunk = tictactoe::Chunk;
  static constexpr std::string_view kName = "tictactoe";
  static constexpr std::string_view kTitle = "Tic-tac-toe";
  static std::string move_help(const Position&) { return "b2 (columns a-c, rows 1-3)"; }
  static constexpr std::array<std::string_view, 1> kVariants = {"tictactoe"};
  static constexpr std::array<std::string_view, 1> kVariantTitles = {"standard"};
  static constexpr bool kHasBoards = false;
  static constexpr int kMaxMoves = tictactoe::kMaxMoves;
  static Position start() { return Position::start(); }
  static Position start_of(std::string_view) { return start(); }
  // Its own suite: every position two plies in.
  static std::vector<Position> openings_of(std::string_view, const std::string& file) {
    if (!file.empty()) return load_openings<Position>(file, [](const std::string& fen) { return Position::from_fen(fen); });
    std::vector<Position> suite;
    for (const auto& [first, unused] : perft_split(start(), 1)) {
      Position after = start();
      after.make_move(first);
      for (const auto& [second, count] : perft_split(after, 1)) {
        suite.push_back(after);
        suite.back().make_move(second);
      }
    }
    return suite;
  }
  static Position from_fen(std::string_view fen, std::string_view) { return Position::from_fen(fen); }
  static bool claims_fen(std::string_view fen) { return fen.size() == 13 && fen[3] == '/'; }
  static bool is_irreversible(Move) { return true; }  // a man stays for good
  static int repetition_limit(const Rules&) { return 0; }
  static Result result_on_repetition(const Position&) { return Result::kDraw; }
  static Rules rules_from(const RuleSettings&) { return {}; }
  static RuleSettings settings_of(const Rules&) { return {.halfmove_limit = 0, .repetition_limit = 0}; }
  static std::uint64_t perft(const Position& pos, int depth) {
    if (depth == 0) return 1;
    std::uint64_t leaves = 0;
    for (const auto& [move, count] : perft_split(pos, depth)) leaves += count;
    return leaves;
  }
  static std::vector<std::pair<Move, std::uint64_t>> perft_split(const Position& pos, int depth) {
    MoveList moves;
    pos.generate_moves(moves);
    std::vector<std::pair<Move, std::uint64_t>> split;
    for (const Move move : moves) {
      Position child = pos;
      child.make_move(move);
      split.emplace_back(move, perft(child, depth - 1));
    }
    return split;
  }
  static std::string move_text(Move move, const Position&) { return tictactoe::to_string(move); }
  static Move parse_move_text(std::string_view text, const Position&) { return tictactoe::parse_move(text); }
  static Bitboard men(const Position& pos, Color side) { return pos.men(side); }
  static int cells(const Position&) { return tictactoe::kCells; }
  static Bitboard gaps(const Position&) { return 0; }
  static std::string board_name(const Position&) { return "3x3"; }
  static std::optional<Move> winning_move(const Position& pos, const MoveList& moves) {
    for (const Move move : moves)
      if (tictactoe::has_line(pos.men(pos.side_to_move()) | Bitboard{1} << move.cell)) return move;
    return std::nullopt;
  }
  static std::uint64_t transposition_key(const Position& pos) { return pos.hash(); }
  static constexpr std::string_view kSideNames[2] = {"x", "o"};
  static constexpr std::string_view kPgnColours[2] = {"Black", "White"};
  static std::string pgn_variant(const Position&) { return "tictactoe"; }
};

}  // namespace ataxx
