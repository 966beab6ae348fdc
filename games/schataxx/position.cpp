#include "games/schataxx/position.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ataxx::schataxx {
namespace {

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;

constexpr int file_of(int sq) { return sq & 7; }
constexpr int rank_of(int sq) { return sq >> 3; }

// The squares around each square at the given (file, rank) offsets.
template <std::size_t N>
constexpr std::array<Bitboard, 64> targets(const std::array<std::pair<int, int>, N>& offsets) {
  std::array<Bitboard, 64> table{};
  for (int sq = 0; sq < 64; ++sq)
    for (const auto& [df, dr] : offsets) {
      const int f = file_of(sq) + df, r = rank_of(sq) + dr;
      if (f >= 0 && f < 8 && r >= 0 && r < 8) table[sq] |= bit(r * 8 + f);
    }
  return table;
}

constexpr auto kKingTargets = targets<8>({{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}});
constexpr auto kKnightTargets = targets<8>({{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}});
// The soldier's jumps: the 16 squares at distance exactly 2.
constexpr auto kSoldierTargets = targets<16>({{{-2, -2}, {-1, -2}, {0, -2}, {1, -2}, {2, -2}, {-2, -1}, {2, -1}, {-2, 0},
                                               {2, 0}, {-2, 1}, {2, 1}, {-2, 2}, {-1, 2}, {0, 2}, {1, 2}, {2, 2}}});

constexpr std::array<std::pair<int, int>, 4> kRookDirections = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr std::array<std::pair<int, int>, 4> kBishopDirections = {{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};

// The empty squares a slider reaches from `from`, stopped by any man.
Bitboard slides(int from, const std::array<std::pair<int, int>, 4>& directions, Bitboard occupied) {
  Bitboard reached = 0;
  for (const auto& [df, dr] : directions) {
    for (int f = file_of(from) + df, r = rank_of(from) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      const Bitboard b = bit(r * 8 + f);
      if (occupied & b) break;
      reached |= b;
    }
  }
  return reached;
}

// Every square within one step of b, b included.
constexpr Bitboard dilate(Bitboard b) {
  const Bitboard row = b | ((b << 1) & ~kFileA) | ((b >> 1) & ~kFileH);
  return row | (row << 8) | (row >> 8);
}

// The empty squares where the men of `type` on `from` may go.
Bitboard destinations(PieceType type, int from, Bitboard occupied) {
  switch (type) {
    case PieceType::kKing: return kKingTargets[from] & ~occupied;
    case PieceType::kKnight: return kKnightTargets[from] & ~occupied;
    case PieceType::kSoldier: return kSoldierTargets[from] & ~occupied;
    case PieceType::kRook: return slides(from, kRookDirections, occupied);
    case PieceType::kBishop: return slides(from, kBishopDirections, occupied);
    case PieceType::kQueen: return slides(from, kRookDirections, occupied) | slides(from, kBishopDirections, occupied);
    case PieceType::kNone: break;
  }
  return 0;
}

struct Keys {
  std::uint64_t man[2][kPieceTypes][64];
  std::uint64_t stock[2][kStockTypes][16];
  std::uint64_t black_to_move;
};

constexpr Keys make_keys() {
  Keys keys{};
  std::uint64_t state = 0x5363686174617878ULL;  // "Schataxx"
  for (auto& colour : keys.man)
    for (auto& type : colour)
      for (auto& key : type) key = zobrist::splitmix64(state);
  for (auto& colour : keys.stock)
    for (auto& type : colour)
      for (auto& key : type) key = zobrist::splitmix64(state);
  keys.black_to_move = zobrist::splitmix64(state);
  return keys;
}
constexpr Keys kKeys = make_keys();

[[noreturn]] void fen_error(std::string_view fen, const std::string& what) {
  throw std::invalid_argument("invalid Schataxx FEN '" + std::string(fen) + "': " + what);
}

PieceType type_of_letter(char c) {
  switch (c) {
    case 'K': case 'k': return PieceType::kKing;
    case 'Q': case 'q': return PieceType::kQueen;
    case 'R': case 'r': return PieceType::kRook;
    case 'B': case 'b': return PieceType::kBishop;
    case 'N': case 'n': return PieceType::kKnight;
    case 'P': case 'p': return PieceType::kSoldier;
    default: return PieceType::kNone;
  }
}

int parse_counter(std::string_view fen, std::string_view field, const char* name, int minimum) {
  int value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || value < minimum || value > Position::kMaxCounter)
    fen_error(fen, std::string(name) + " '" + std::string(field) + "' is not an integer in [" + std::to_string(minimum) +
                       ", " + std::to_string(Position::kMaxCounter) + "]");
  return value;
}

std::vector<std::string_view> fields_of(std::string_view text) {
  std::vector<std::string_view> fields;
  for (std::size_t start = text.find_first_not_of(' '); start != std::string_view::npos;) {
    const std::size_t end = text.find(' ', start);
    fields.push_back(text.substr(start, end - start));
    start = text.find_first_not_of(' ', end);
  }
  return fields;
}

}  // namespace

char piece_letter(PieceType type) { return "KQRBNP?"[static_cast<int>(type)]; }

std::string_view variant_name(Variant variant) {
  switch (variant) {
    case Variant::kStandard: return "schataxx";
    case Variant::kBalanced: return "schataxx-balanced";
    case Variant::kUnlimited: return "schataxx-unlimited";
  }
  return "?";
}

Variant parse_variant(std::string_view name) {
  for (const Variant v : {Variant::kStandard, Variant::kBalanced, Variant::kUnlimited})
    if (variant_name(v) == name) return v;
  throw std::invalid_argument("unknown Schataxx variant '" + std::string(name) +
                              "' (schataxx, schataxx-balanced, schataxx-unlimited)");
}

std::string square_name(int square) {
  return {static_cast<char>('a' + file_of(square)), static_cast<char>('1' + rank_of(square))};
}

Move parse_move(std::string_view text) {
  auto square = [&](std::string_view s) {
    if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
      throw std::invalid_argument("move '" + std::string(text) + "': '" + std::string(s) + "' is not a square a1..h8");
    return (s[1] - '1') * 8 + (s[0] - 'a');
  };
  if (text == "0000") return Move::pass();
  if (text.size() == 4 && text[1] == '@') {
    const PieceType type = type_of_letter(text[0]);
    if (type == PieceType::kNone || type == PieceType::kKing || text[0] != piece_letter(type))
      throw std::invalid_argument("move '" + std::string(text) + "': a drop names Q, R, B, N or P in capitals");
    return Move::drop_of(type, square(text.substr(2)));
  }
  if (text.size() != 4)
    throw std::invalid_argument("move '" + std::string(text) + "': expected from-to (a1b2), a drop (Q@g8) or 0000");
  const int from = square(text.substr(0, 2)), to = square(text.substr(2));
  if (from == to) throw std::invalid_argument("move '" + std::string(text) + "' goes nowhere");
  return Move::step(from, to);
}

std::string to_string(Move move) {
  if (move.is_pass()) return "0000";
  if (move.is_drop()) return std::string(1, piece_letter(move.drop)) + "@" + square_name(move.to);
  return square_name(move.from) + square_name(move.to);
}

int transform_square(int symmetry, int square) {
  int file = file_of(square), rank = rank_of(square);
  if (symmetry & 1) file = 7 - file;
  if (symmetry & 2) rank = 7 - rank;
  if (symmetry & 4) std::swap(file, rank);
  return rank * 8 + file;
}

int inverse_symmetry(int symmetry) {
  // Mirrors then a swap are undone by the swap, then the mirrors of the swapped axes.
  return (symmetry & 4) ? (4 | ((symmetry & 1) << 1) | ((symmetry & 2) >> 1)) : symmetry;
}

Move transform_move(int symmetry, Move move) {
  if (move.is_pass()) return move;
  Move out = move;
  out.to = static_cast<std::uint8_t>(transform_square(symmetry, move.to));
  if (!move.is_drop()) out.from = static_cast<std::uint8_t>(transform_square(symmetry, move.from));
  return out;
}

Position Position::transformed(int symmetry) const {
  Position out = *this;
  out.by_color_ = {};
  out.by_type_ = {};
  for (int sq = 0; sq < kSquares; ++sq)
    if (const PieceType type = type_on(sq); type != PieceType::kNone)
      out.put((men(kWhite) & bit(sq)) ? kWhite : kBlack, type, transform_square(symmetry, sq));
  out.hash_ = out.compute_hash();
  return out;
}

void Position::put(Color c, PieceType t, int square) {
  by_color_[index(c)] |= bit(square);
  by_type_[static_cast<int>(t)] |= bit(square);
}

Position Position::from_fen(std::string_view fen, Variant variant) {
  const auto fields = fields_of(fen);
  if (fields.empty()) fen_error(fen, "empty");
  if (fields.size() > 6) fen_error(fen, "expected at most 6 fields (board[stocks] side - - plies move)");
  Position pos;
  pos.variant_ = variant;
  const std::string_view board_and_stock = fields[0];
  const std::size_t open = board_and_stock.find('[');
  if (open == std::string_view::npos || board_and_stock.back() != ']')
    fen_error(fen, "the board must be followed by the stocks in brackets, e.g. [QRRBBNPPPPPPPPqrrbbnpppppppp]");
  const std::string_view board = board_and_stock.substr(0, open);
  int rank = 7, file = 0;
  for (const char c : board) {
    if (c == '/') {
      if (file != 8) fen_error(fen, "rank " + std::to_string(rank + 1) + " covers " + std::to_string(file) + " squares, expected 8");
      if (--rank < 0) fen_error(fen, "more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
    } else if (const PieceType type = type_of_letter(c); type != PieceType::kNone) {
      if (file >= 8) fen_error(fen, "rank " + std::to_string(rank + 1) + " covers more than 8 squares");
      pos.put(c >= 'a' ? kBlack : kWhite, type, rank * 8 + file++);
    } else {
      fen_error(fen, std::string("unexpected character '") + c + "' on the board");
    }
    if (file > 8) fen_error(fen, "rank " + std::to_string(rank + 1) + " covers more than 8 squares");
  }
  if (rank != 0 || file != 8) fen_error(fen, "the board must have 8 ranks of 8 squares");
  for (const char c : board_and_stock.substr(open + 1, board_and_stock.size() - open - 2)) {
    const PieceType type = type_of_letter(c);
    if (type == PieceType::kNone) fen_error(fen, std::string("unexpected character '") + c + "' in the stocks");
    if (type == PieceType::kKing) fen_error(fen, "a king is never in a stock");
    const Color owner = c >= 'a' ? kBlack : kWhite;
    if (variant == Variant::kUnlimited && type == PieceType::kSoldier) continue;
    std::uint8_t& count = pos.stock_[index(owner)][stock_index(type)];
    if (++count > kSetCount[static_cast<int>(type)])
      fen_error(fen, std::string("a stock holds more ") + c + " than a set has");
  }
  for (const Color c : {kWhite, kBlack}) {
    if (popcount(pos.men(c) & pos.men(PieceType::kKing)) != 1)
      fen_error(fen, std::string(c == kWhite ? "White" : "Black") + " must have one king on the board");
    if (variant == Variant::kUnlimited) pos.stock_[index(c)][stock_index(PieceType::kSoldier)] = kUnlimitedSoldiers;
  }
  for (int t = 1; t < kPieceTypes; ++t) {
    const auto type = static_cast<PieceType>(t);
    if (variant == Variant::kUnlimited && type == PieceType::kSoldier) continue;
    const int used = popcount(pos.by_type_[t]) + pos.stock(kWhite, type) + pos.stock(kBlack, type);
    if (used > 2 * kSetCount[t])
      fen_error(fen, "the board and stocks hold " + std::to_string(used) + " " + piece_letter(type) +
                         ", more than the two sets have");
  }
  if (fields.size() > 1) {
    if (fields[1] != "w" && fields[1] != "b") fen_error(fen, "side to move '" + std::string(fields[1]) + "' is not w or b");
    pos.side_ = fields[1] == "w" ? kWhite : kBlack;
  }
  for (std::size_t i = 2; i < std::min<std::size_t>(fields.size(), 4); ++i)
    if (fields[i] != "-") fen_error(fen, "field " + std::to_string(i + 1) + " must be '-' (no castling, no en passant)");
  if (fields.size() > 4) pos.plies_since_drop_ = parse_counter(fen, fields[4], "plies since the last drop", 0);
  if (fields.size() > 5) pos.move_number_ = parse_counter(fen, fields[5], "move number", 1);
  pos.hash_ = pos.compute_hash();
  return pos;
}

std::string Position::fen() const {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const int sq = rank * 8 + file;
      const PieceType type = type_on(sq);
      if (type == PieceType::kNone) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + std::exchange(empty, 0));
      const char letter = piece_letter(type);
      out += (men(kBlack) & bit(sq)) ? static_cast<char>(letter - 'A' + 'a') : letter;
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (rank) out += '/';
  }
  out += '[';
  for (const Color c : {kWhite, kBlack})
    for (int i = 0; i < kStockTypes; ++i) {
      const PieceType type = stock_type(i);
      if (variant_ == Variant::kUnlimited && type == PieceType::kSoldier) continue;
      const char letter = c == kWhite ? piece_letter(type) : static_cast<char>(piece_letter(type) - 'A' + 'a');
      out.append(stock(c, type), letter);
    }
  out += "] ";
  out += side_ == kWhite ? "w" : "b";
  out += " - - " + std::to_string(plies_since_drop_) + " " + std::to_string(move_number_);
  return out;
}

PieceType Position::type_on(int square) const {
  for (int t = 0; t < kPieceTypes; ++t)
    if (by_type_[t] & bit(square)) return static_cast<PieceType>(t);
  return PieceType::kNone;
}

int Position::stock(Color c, PieceType t) const { return stock_[index(c)][stock_index(t)]; }

std::uint64_t Position::compute_hash() const {
  std::uint64_t h = side_ == kBlack ? kKeys.black_to_move : 0;
  for (int c = 0; c < 2; ++c) {
    for (int t = 0; t < kPieceTypes; ++t)
      for (Bitboard b = by_color_[c] & by_type_[t]; b;) h ^= kKeys.man[c][t][pop_lsb(b)];
    for (int i = 0; i < kStockTypes; ++i) h ^= kKeys.stock[c][i][std::min<int>(stock_[c][i], 15)];
  }
  return h;
}

Bitboard Position::territory(Color c) const {
  const Bitboard occupied_squares = occupied();
  const Bitboard own = men(c), theirs = men(~c);
  Bitboard total = 0;
  for (Bitboard unvisited = ~occupied_squares; unvisited;) {
    Bitboard region = bit(lsb(unvisited));
    for (Bitboard grown = region;; region = grown) {
      grown = dilate(region) & ~occupied_squares;
      if (grown == region) break;
    }
    unvisited &= ~region;
    const Bitboard border = dilate(region) & occupied_squares;
    if ((border & own) && !(border & theirs)) total |= region;
  }
  return total;
}

void Position::generate_for(Color c, MoveList& moves) const {
  const Bitboard own = men(c), all = occupied();
  const bool early = variant_ == Variant::kBalanced && ply() < 5;
  const Bitboard drop_squares = dilate(own) & ~all;
  for (int i = 0; i < kStockTypes; ++i) {
    const PieceType type = stock_type(i);
    if (stock_[index(c)][i] == 0 || (early && (type == PieceType::kQueen || type == PieceType::kRook))) continue;
    for (Bitboard to = drop_squares; to;) moves.push_back(Move::drop_of(type, pop_lsb(to)));
  }
  for (Bitboard from_set = own; from_set;) {
    const int from = pop_lsb(from_set);
    for (Bitboard to = destinations(type_on(from), from, all); to;) moves.push_back(Move::step(from, pop_lsb(to)));
  }
}

bool Position::has_move(Color c) const {
  MoveList moves;
  generate_for(c, moves);
  return !moves.empty();
}

bool Position::over_by_men() const {
  const Bitboard kings = men(PieceType::kKing);
  if (!(kings & men(kWhite)) || !(kings & men(kBlack))) return true;
  return area(kWhite) > kSquares / 2 || area(kBlack) > kSquares / 2;
}

void Position::generate_moves(MoveList& moves) const {
  if (over_by_men()) return;
  generate_for(side_, moves);
  if (moves.empty() && has_move(~side_)) moves.push_back(Move::pass());
}

std::optional<Move> Position::winning_move(const MoveList& moves) const {
  const Bitboard king_zone = dilate(men(PieceType::kKing) & men(~side_));
  for (const Move move : moves)
    if (!move.is_pass() && (bit(move.to) & king_zone)) return move;
  for (const Move move : moves) {
    if (move.is_pass()) continue;
    Position child = *this;
    child.make_move(move);
    if (child.area(side_) > kSquares / 2) return move;
  }
  return std::nullopt;
}

bool Position::is_legal(Move move) const {
  MoveList moves;
  generate_moves(moves);
  return std::find(moves.begin(), moves.end(), move) != moves.end();
}

Bitboard Position::turned_by(Move move) const { return move.is_pass() ? 0 : kKingTargets[move.to] & men(~side_); }

void Position::make_move(Move move) {
  const int us = index(side_), them = us ^ 1;
  const Bitboard turned = turned_by(move);
  plies_since_drop_ = std::min(plies_since_drop_ + 1, kMaxCounter);
  if (!move.is_pass()) {
    PieceType type = move.drop;
    if (move.is_drop()) {
      std::uint8_t& count = stock_[us][stock_index(type)];
      if (!(variant_ == Variant::kUnlimited && type == PieceType::kSoldier)) {
        hash_ ^= kKeys.stock[us][stock_index(type)][count] ^ kKeys.stock[us][stock_index(type)][count - 1];
        --count;
      }
      plies_since_drop_ = 0;
    } else {
      type = type_on(move.from);
      by_color_[us] ^= bit(move.from);
      by_type_[static_cast<int>(type)] ^= bit(move.from);
      hash_ ^= kKeys.man[us][static_cast<int>(type)][move.from];
    }
    put(side_, type, move.to);
    hash_ ^= kKeys.man[us][static_cast<int>(type)][move.to];
    for (Bitboard left = turned; left;) {
      const int sq = pop_lsb(left);
      const int t = static_cast<int>(type_on(sq));
      by_color_[them] ^= bit(sq);
      by_color_[us] |= bit(sq);
      hash_ ^= kKeys.man[them][t][sq] ^ kKeys.man[us][t][sq];
    }
  }
  if (side_ == kBlack) move_number_ = std::min(move_number_ + 1, kMaxCounter);
  side_ = ~side_;
  hash_ ^= kKeys.black_to_move;
}

Result Position::result_by_area() const {
  const int white = area(kWhite), black = area(kBlack);
  return white > black ? Result::kXWins : black > white ? Result::kOWins : Result::kDraw;
}

Outcome Position::outcome(const Rules& rules) const {
  const Bitboard kings = men(PieceType::kKing);
  if (!(kings & men(kWhite))) return {Result::kOWins, EndReason::kKingTurned};
  if (!(kings & men(kBlack))) return {Result::kXWins, EndReason::kKingTurned};
  const int white = area(kWhite), black = area(kBlack);
  if (white > kSquares / 2) return {Result::kXWins, EndReason::kEnclosed};
  if (black > kSquares / 2) return {Result::kOWins, EndReason::kEnclosed};
  if (!has_move(kWhite) && !has_move(kBlack)) return {result_by_area(), EndReason::kNoMoves};
  if (rules.ply_limit > 0 && plies_since_drop_ >= rules.ply_limit) return {result_by_area(), EndReason::kHalfmoveClock};
  return {};
}

}  // namespace ataxx::schataxx
