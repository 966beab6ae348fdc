#include "games/ataxx/position.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ataxx {
namespace {

[[noreturn]] void fen_error(std::string_view fen, const std::string& what) {
  throw std::invalid_argument("invalid FEN '" + std::string(fen) + "': " + what);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::vector<std::string_view> split_whitespace(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

int parse_counter(std::string_view fen, std::string_view field, const char* name, int minimum) {
  int value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || value < minimum || value > Position::kMaxCounter)
    fen_error(fen, std::string(name) + " '" + std::string(field) + "' is not an integer in [" +
                       std::to_string(minimum) + ", " + std::to_string(Position::kMaxCounter) + "]");
  return value;
}

// The cells of one row in column order, the FEN's order within a rank.
template <typename Visit>
void for_each_cell_of_row(const Board& board, int row, Visit visit) {
  for (int column = 0; column < board.size; ++column)
    if (const auto cell = board.find(column, row)) visit(*cell);
}

int row_length(const Board& board, int row) {
  int length = 0;
  for_each_cell_of_row(board, row, [&](Square) { ++length; });
  return length;
}

// The number of cells a FEN rank covers; throws on a character that is neither a digit nor x, o, -.
int covered_cells(std::string_view fen, std::string_view rank, int rank_number) {
  int covered = 0;
  for (const char c : rank) {
    if (c >= '1' && c <= '9') covered += c - '0';
    else if (c == 'x' || c == 'X' || c == 'o' || c == 'O' || c == '-') ++covered;
    else fen_error(fen, std::string("unexpected character '") + c + "' on rank " + std::to_string(rank_number));
  }
  return covered;
}

// The board whose shape the ranks (top first) have: n ranks of n cells for n = 4..8, or the nine
// rows of the hexagon.
const Board& board_of_shape(std::string_view fen, const std::vector<std::string_view>& ranks) {
  const int count = static_cast<int>(ranks.size());
  // A stray '/' (a trailing one, or two together) had been taken for a rank.
  if (std::ranges::any_of(ranks, &std::string_view::empty)) fen_error(fen, "a rank is empty (a '/' too many?)");
  const Board* candidate = count >= 4 && count <= 8 ? &board(static_cast<BoardId>(count - 4))
                           : count == 9             ? &board(BoardId::kHexagon)
                                                    : nullptr;
  if (!candidate)
    fen_error(fen, "the board has " + std::to_string(count) +
                       " ranks; expected 4 to 8 (a square board) or 9 (Hexxagon)");
  for (int i = 0; i < count; ++i) {
    const int rank_number = count - i;
    const int covered = covered_cells(fen, ranks[i], rank_number);
    const int expected = row_length(*candidate, rank_number - 1);
    if (covered == expected) continue;
    fen_error(fen, "rank " + std::to_string(rank_number) + " '" + std::string(ranks[i]) + "' covers " +
                       std::to_string(covered) + " cells, expected " + std::to_string(expected) +
                       (candidate->hexagonal ? " (Hexxagon rows 9 to 1 hold 5,6,7,8,9,8,7,6,5 cells)"
                                             : " (a square board has as many cells per rank as ranks)"));
  }
  return *candidate;
}

}  // namespace

Position Position::from_fen(std::string_view fen) {
  const auto fields = split_whitespace(fen);
  if (fields.empty()) fen_error(fen, "it is empty");
  if (fields.size() > 4) fen_error(fen, "expected at most 4 fields (board side halfmove fullmove)");

  Position pos;
  const auto ranks = split(fields[0], '/');
  pos.board_ = &board_of_shape(fen, ranks);
  const Board& board = *pos.board_;
  for (int i = 0; i < board.size; ++i) {
    std::vector<Square> cells;
    for_each_cell_of_row(board, board.size - 1 - i, [&](Square sq) { cells.push_back(sq); });
    std::size_t next = 0;
    for (const char c : ranks[i]) {
      if (c >= '1' && c <= '9') {
        next += c - '0';
        continue;
      }
      const Bitboard b = bit(cells[next++]);
      if (c == 'x' || c == 'X') pos.pieces_[0] |= b;
      else if (c == 'o' || c == 'O') pos.pieces_[1] |= b;
      else pos.gaps_ |= b;
    }
  }

  if (fields.size() > 1) {
    if (fields[1] == "x" || fields[1] == "X") pos.side_ = Color::kX;
    else if (fields[1] == "o" || fields[1] == "O") pos.side_ = Color::kO;
    else fen_error(fen, "side to move '" + std::string(fields[1]) + "' is neither x nor o");
  }
  if (fields.size() > 2) pos.halfmove_clock_ = parse_counter(fen, fields[2], "halfmove clock", 0);
  if (fields.size() > 3) pos.fullmove_number_ = parse_counter(fen, fields[3], "fullmove number", 1);
  pos.hash_ = pos.compute_hash();
  return pos;
}

Position Position::from_bitboards(const Board& board, Bitboard x, Bitboard o, Bitboard gaps, Color side,
                                  int halfmove_clock, int fullmove_number) {
  if ((x & o) || (x & gaps) || (o & gaps) || ((x | o | gaps) & ~board.cells))
    throw std::invalid_argument("position: pieces and gaps overlap or lie off the " + std::string(board.name) +
                                " board");
  if (halfmove_clock < 0 || fullmove_number < 1 || halfmove_clock > kMaxCounter || fullmove_number > kMaxCounter)
    throw std::invalid_argument("position: counters out of range");
  Position pos;
  pos.board_ = &board;
  pos.pieces_[0] = x;
  pos.pieces_[1] = o;
  pos.gaps_ = gaps;
  pos.side_ = side;
  pos.halfmove_clock_ = halfmove_clock;
  pos.fullmove_number_ = fullmove_number;
  pos.hash_ = pos.compute_hash();
  return pos;
}

std::string Position::fen() const {
  std::string out;
  for (int row = board_->size - 1; row >= 0; --row) {
    int empty_run = 0;
    for_each_cell_of_row(*board_, row, [&](Square sq) {
      const Bitboard b = bit(sq);
      const char c = (pieces_[0] & b) ? 'x' : (pieces_[1] & b) ? 'o' : (gaps_ & b) ? '-' : '\0';
      if (!c) {
        ++empty_run;
        return;
      }
      if (empty_run) out += static_cast<char>('0' + std::exchange(empty_run, 0));
      out += c;
    });
    if (empty_run) out += static_cast<char>('0' + empty_run);
    if (row) out += '/';
  }
  out += side_ == Color::kX ? " x " : " o ";
  out += std::to_string(halfmove_clock_) + ' ' + std::to_string(fullmove_number_);
  return out;
}

std::uint64_t Position::compute_hash() const {
  const auto& keys = zobrist::kKeys;
  std::uint64_t h = keys.board[static_cast<int>(board_->id)] ^ (side_ == Color::kO ? keys.side_o : 0);
  for (int c = 0; c < 2; ++c)
    for (Bitboard b = pieces_[c]; b;) h ^= keys.piece[c][pop_lsb(b)];
  for (Bitboard b = gaps_; b;) h ^= keys.gap[pop_lsb(b)];
  return h;
}

bool Position::is_legal(Move move) const {
  if (outcome(RuleSettings{.halfmove_limit = 0, .repetition_limit = 0}).is_over()) return false;
  const Bitboard own = pieces(side_);
  if (move.is_pass()) return !can_move(side_);
  if (move.from >= kMaxCells || move.to >= kMaxCells || !(empty() & bit(move.to))) return false;
  if (move.is_single()) return (board_->dilate(own) & bit(move.to)) != 0;
  return (own & bit(move.from)) && (board_->jump_targets[move.from] & bit(move.to));
}

Result Position::result_by_count() const {
  const int x = popcount(pieces_[0]);
  const int o = popcount(pieces_[1]);
  return x > o ? Result::kXWins : o > x ? Result::kOWins : Result::kDraw;
}

Outcome Position::outcome(const RuleSettings& rules) const {
  if (!pieces_[0] || !pieces_[1]) return {result_by_count(), EndReason::kNoPieces};
  if (!can_move(Color::kX) && !can_move(Color::kO)) return {result_by_count(), EndReason::kNoMoves};
  if (rules.halfmove_limit > 0 && halfmove_clock_ >= rules.halfmove_limit)
    return {Result::kDraw, EndReason::kHalfmoveClock};
  return {};
}

}  // namespace ataxx
