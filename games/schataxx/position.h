// Schataxx, Jörg Knappen's crossover of chess and Ataxx, as issue 31 settles its rules: an 8x8
// board, chess men that move without capturing (the soldier jumps as an Ataxx jump), drops from
// a stock on squares next to one's own men, and the enemy men around a destination turning
// colour. A position is bitboards by colour and by type, both stocks, the side to move and the
// counters; copy-make, like Ataxx's.
#pragma once

#include <array>
#include <optional>
#include <cstdint>
#include <string>
#include <string_view>

#include "games/core/bitboard.h"
#include "games/core/move_list.h"
#include "games/core/outcome.h"
#include "games/core/splitmix.h"

namespace ataxx::schataxx {

// White is Ataxx's x (it moves first), Black its o: the shared Color, Result and Outcome.
inline constexpr Color kWhite = Color::kX;
inline constexpr Color kBlack = Color::kO;

enum class PieceType : std::uint8_t { kKing, kQueen, kRook, kBishop, kKnight, kSoldier, kNone };
inline constexpr int kPieceTypes = 6;
// The stock holds every type but the king; its index is the type's less one.
inline constexpr int kStockTypes = 5;
constexpr int stock_index(PieceType type) { return static_cast<int>(type) - 1; }
constexpr PieceType stock_type(int index) { return static_cast<PieceType>(index + 1); }
// One standard set, by type: K Q R B N P.
inline constexpr std::array<int, kPieceTypes> kSetCount = {1, 1, 2, 2, 2, 8};

char piece_letter(PieceType type);  // 'K', 'Q', 'R', 'B', 'N', 'P'

enum class Variant : std::uint8_t {
  kStandard,
  kBalanced,   // no queen or rook drop in the game's first five plies
  kUnlimited,  // each stock holds unlimited soldiers besides its other men
};
// "schataxx", "schataxx-balanced", "schataxx-unlimited" (UCI_Variant's names) and back; parse
// throws std::invalid_argument for another name.
std::string_view variant_name(Variant variant);
Variant parse_variant(std::string_view name);

// The end-of-game numbers: the plies since the last drop that end the game (0: never), and how
// many times a position (board, stocks, side) may occur before the game ends (0: never).
struct Rules {
  int ply_limit = 100;
  int repetition_limit = 2;
};

// A move: a drop (`Q@g8`), a man's move (`a1b2`) or the pass (`0000`). Squares are file + 8 x rank.
struct Move {
  static constexpr std::uint8_t kNoSquare = 64;
  std::uint8_t from = kNoSquare;
  std::uint8_t to = kNoSquare;
  PieceType drop = PieceType::kNone;

  static constexpr Move pass() { return {}; }
  static constexpr Move drop_of(PieceType type, int to) { return {kNoSquare, static_cast<std::uint8_t>(to), type}; }
  static constexpr Move step(int from, int to) {
    return {static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), PieceType::kNone};
  }
  constexpr bool is_pass() const { return to == kNoSquare; }
  constexpr bool is_drop() const { return drop != PieceType::kNone; }
  friend constexpr bool operator==(Move, Move) = default;
};

// Notation only (squares on the board, a stock type for a drop), not legality; throws
// std::invalid_argument naming the text and the fault.
Move parse_move(std::string_view text);
std::string to_string(Move move);
std::string square_name(int square);  // "a1" .. "h8"

// The square's 8 symmetries (the rules have no direction: soldiers have no forward). Symmetry s
// mirrors the files when bit 0 is set, the ranks when bit 1 is, then swaps files and ranks when
// bit 2 is; 0 is the identity.
inline constexpr int kSymmetries = 8;
int transform_square(int symmetry, int square);
int inverse_symmetry(int symmetry);
Move transform_move(int symmetry, Move move);

// Every drop (5 types x 64) and every man's move of up to 32 men: a bound, not a typical count.
inline constexpr int kMaxMoves = 5 * 64 + 32 * 27 + 1;

using MoveList = BasicMoveList<Move, kMaxMoves>;

class Position {
 public:
  static constexpr std::string_view kStartFen = "k6N/8/8/8/8/8/8/K6n[QRRBBNPPPPPPPPqrrbbnpppppppp] w - - 0 1";
  static constexpr int kSquares = 64;
  static constexpr int kMaxCounter = 1'000'000;

  static Position startpos(Variant variant = Variant::kStandard) { return from_fen(kStartFen, variant); }
  // Crazyhouse-style FEN: board from rank 8 with the stocks in brackets, side w/b, two unused
  // fields, plies since the last drop, move number (trailing fields may be left out). Throws
  // std::invalid_argument saying what is wrong: unknown letters, a rank of the wrong length, not
  // one king of each colour, stocks or men beyond two sets, counters out of range.
  static Position from_fen(std::string_view fen, Variant variant = Variant::kStandard);
  std::string fen() const;

  Variant variant() const { return variant_; }
  Color side_to_move() const { return side_; }
  Bitboard men(Color c) const { return by_color_[index(c)]; }
  Bitboard men(PieceType t) const { return by_type_[static_cast<int>(t)]; }
  Bitboard occupied() const { return by_color_[0] | by_color_[1]; }
  PieceType type_on(int square) const;
  // The men of a type in a colour's stock (an unlimited soldier stock reads kUnlimitedSoldiers).
  int stock(Color c, PieceType t) const;
  static constexpr int kUnlimitedSoldiers = 99;
  int plies_since_drop() const { return plies_since_drop_; }
  int fullmove_number() const { return move_number_; }
  int ply() const { return 2 * (move_number_ - 1) + (side_ == kBlack ? 1 : 0); }  // since the start
  std::uint64_t hash() const { return hash_; }
  std::uint64_t compute_hash() const;

  // The same position with every man moved by a symmetry (stocks, side and counters kept).
  Position transformed(int symmetry) const;

  // A side's territory: every region of empty squares (8-connected) that borders its men and no
  // enemy man (the board's edge borders nothing). Its area: its men and its territory.
  Bitboard territory(Color c) const;
  int area(Color c) const { return popcount(men(c) | territory(c)); }

  // The legal moves of the side to move; the single pass when it has none but the other side has
  // some; none once the game is over by the position (a king turned, an area above half the
  // board, neither side able to move).
  void generate_moves(MoveList& moves) const;
  bool has_move(Color c) const;  // other than a pass
  // One of `moves` (this position's) that wins at once for the side to move, if one does: it
  // turns the enemy king or takes the mover's area above half the board.
  std::optional<Move> winning_move(const MoveList& moves) const;
  bool has_winning_move(const MoveList& moves) const { return winning_move(moves).has_value(); }
  bool is_legal(Move move) const;
  // The enemy men `move` (legal here) turns: those around its destination.
  Bitboard turned_by(Move move) const;
  void make_move(Move move);  // move must be legal

  // The end of the game by the position and the ply limit (repetition needs the game's history).
  Outcome outcome(const Rules& rules = {}) const;
  Result result_by_area() const;

  friend bool operator==(const Position&, const Position&) = default;

 private:
  void put(Color c, PieceType t, int square);
  void generate_for(Color c, MoveList& moves) const;
  bool over_by_men() const;  // a king turned, or an area above half the board

  std::array<Bitboard, 2> by_color_{};
  std::array<Bitboard, kPieceTypes> by_type_{};
  std::array<std::array<std::uint8_t, kStockTypes>, 2> stock_{};
  Color side_ = kWhite;
  Variant variant_ = Variant::kStandard;
  int plies_since_drop_ = 0;
  int move_number_ = 1;
  std::uint64_t hash_ = 0;
};

}  // namespace ataxx::schataxx
