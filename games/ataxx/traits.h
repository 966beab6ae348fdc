// Ataxx on every board of its family, as the pipeline plays it: the types and facts of the
// contract in games/game_type.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "games/ataxx/chunk.h"
#include "games/ataxx/encoder.h"
#include "games/ataxx/game.h"
#include "games/ataxx/openings.h"
#include "games/ataxx/perft.h"
#include "games/ataxx/play.h"
#include "games/ataxx/view.h"

namespace ataxx {

struct AtaxxGame {
  using Game = ataxx::Game;
  using Position = ataxx::Position;
  using Move = ataxx::Move;
  using MoveList = ataxx::MoveList;
  using Rules = RuleSettings;
  using Encoder = AtaxxEncoder;
  using Play = AtaxxPlay;
  using View = AtaxxView;
  using Chunk = AtaxxChunk;
  static constexpr std::string_view kName = "ataxx";
  static constexpr std::string_view kTitle = "Ataxx";
  static constexpr std::array<std::string_view, 1> kVariants = {"ataxx"};
  static constexpr std::array<std::string_view, 1> kVariantTitles = {"standard"};
  static constexpr bool kHasBoards = true;  // a run chooses them (boards:), a model file lists them
  static constexpr int kMaxMoves = ataxx::kMaxMoves;
  static Position start() { return Position::startpos(); }
  // The starts of self-play and gating, one a board: its start and its opening suite (file's
  // positions, or two plies from the start when ""). With no board named, a file's positions on
  // any boards, or the 7x7 suite.
  static Position start_of(std::string_view board) { return Position::startpos(board_named(board)); }
  static std::vector<Position> openings_of(std::string_view board, const std::string& file) {
    if (board.empty()) return file.empty() ? default_openings() : load_openings(file);
    return board_openings(board_named(board), file);
  }
  // The FEN says the board. Any FEN without brackets (which no Ataxx FEN has) is taken for Ataxx's.
  static Position from_fen(std::string_view fen, std::string_view) { return Position::from_fen(fen); }
  static bool claims_fen(std::string_view fen) { return fen.find('[') == std::string_view::npos; }
  static const Board& board_named(std::string_view name) {
    const Board* board = find_board(name);
    if (!board) throw std::invalid_argument("unknown board '" + std::string(name) + "' (4x4 .. 8x8, hexagon)");
    return *board;
  }
  // After such a move no earlier position can recur: a single adds a piece for good.
  static bool is_irreversible(Move move) { return move.is_single(); }
  static int repetition_limit(const Rules& rules) { return rules.repetition_limit; }
  // Who wins when a repetition ends the game: the pieces are counted.
  static Result result_on_repetition(const Position& pos) { return pos.result_by_count(); }
  // Model files and run configs keep every game's end-of-game numbers as RuleSettings.
  static Rules rules_from(const RuleSettings& settings) { return settings; }
  static RuleSettings settings_of(const Rules& rules) { return rules; }
  static std::uint64_t perft(const Position& pos, int depth) { return ataxx::perft(pos, depth); }
  static std::vector<std::pair<Move, std::uint64_t>> perft_split(const Position& pos, int depth) {
    return ataxx::perft_split(pos, depth);
  }
  static std::string move_text(Move move, const Position& pos) { return to_string(move, pos.board()); }
  // The notation by example: a clone and a jump pos has (cells are named otherwise on each board).
  static std::string move_help(const Position& pos) {
    MoveList moves;
    pos.generate_moves(moves);
    std::string clone = "a destination", jump = "from-to";
    const auto single = std::ranges::find_if(moves, [](Move m) { return m.is_single(); });
    const auto jumping = std::ranges::find_if(moves, [](Move m) { return m.is_jump(); });
    if (single != moves.end()) clone = move_text(*single, pos);
    if (jumping != moves.end()) jump = move_text(*jumping, pos);
    return clone + " (clone), " + jump + " (jump), 0000 (pass)";
  }
  static Move parse_move_text(std::string_view text, const Position& pos) { return parse_move(text, pos.board()); }
  static Bitboard men(const Position& pos, Color side) { return pos.pieces(side); }
  static int cells(const Position& pos) { return pos.board().num_cells; }
  static Bitboard gaps(const Position& pos) { return pos.gaps(); }
  static std::string board_name(const Position& pos) { return std::string(pos.board().name); }
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

}  // namespace ataxx
