#include "game/position.h"

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
  if (error != std::errc() || end != field.data() + field.size() || value < minimum)
    fen_error(fen, std::string(name) + " '" + std::string(field) + "' is not an integer >= " + std::to_string(minimum));
  return value;
}

}  // namespace

std::string to_string(Result result) {
  switch (result) {
    case Result::kOngoing: return "*";
    case Result::kXWins: return "1-0";
    case Result::kOWins: return "0-1";
    case Result::kDraw: return "1/2-1/2";
  }
  return "?";
}

std::string to_string(EndReason reason) {
  switch (reason) {
    case EndReason::kNone: return "none";
    case EndReason::kNoPieces: return "no pieces";
    case EndReason::kNoMoves: return "no moves";
    case EndReason::kHalfmoveClock: return "halfmove clock";
    case EndReason::kRepetition: return "repetition";
  }
  return "?";
}

Position Position::from_fen(std::string_view fen) {
  const auto fields = split_whitespace(fen);
  if (fields.empty()) fen_error(fen, "it is empty");
  if (fields.size() > 4) fen_error(fen, "expected at most 4 fields (board side halfmove fullmove)");

  Position pos;
  const auto ranks = split(fields[0], '/');
  if (ranks.size() != kBoardSize)
    fen_error(fen, "the board has " + std::to_string(ranks.size()) + " ranks, expected 7");
  for (int row = 0; row < kBoardSize; ++row) {
    const int rank = kBoardSize - 1 - row;
    int file = 0;
    for (const char c : ranks[row]) {
      if (c >= '1' && c <= '7') {
        file += c - '0';
        continue;
      }
      if (file >= kBoardSize) fen_error(fen, "rank " + std::to_string(rank + 1) + " has more than 7 squares");
      const Bitboard b = bit(make_square(file, rank));
      if (c == 'x' || c == 'X') pos.pieces_[0] |= b;
      else if (c == 'o' || c == 'O') pos.pieces_[1] |= b;
      else if (c == '-') pos.gaps_ |= b;
      else fen_error(fen, std::string("unexpected character '") + c + "' on rank " + std::to_string(rank + 1));
      ++file;
    }
    if (file != kBoardSize)
      fen_error(fen, "rank " + std::to_string(rank + 1) + " '" + std::string(ranks[row]) + "' does not cover 7 squares");
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

Position Position::from_bitboards(Bitboard x, Bitboard o, Bitboard gaps, Color side, int halfmove_clock,
                                  int fullmove_number) {
  if ((x & o) || (x & gaps) || (o & gaps) || ((x | o | gaps) & ~kAllSquares))
    throw std::invalid_argument("position: pieces and gaps overlap or lie off the board");
  if (halfmove_clock < 0 || fullmove_number < 1) throw std::invalid_argument("position: counters out of range");
  Position pos;
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
  for (int rank = kBoardSize - 1; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < kBoardSize; ++file) {
      const Bitboard b = bit(make_square(file, rank));
      const char c = (pieces_[0] & b) ? 'x' : (pieces_[1] & b) ? 'o' : (gaps_ & b) ? '-' : '\0';
      if (!c) {
        ++empty_run;
        continue;
      }
      if (empty_run) out += static_cast<char>('0' + std::exchange(empty_run, 0));
      out += c;
    }
    if (empty_run) out += static_cast<char>('0' + empty_run);
    if (rank) out += '/';
  }
  out += side_ == Color::kX ? " x " : " o ";
  out += std::to_string(halfmove_clock_) + ' ' + std::to_string(fullmove_number_);
  return out;
}

std::uint64_t Position::compute_hash() const {
  const auto& keys = zobrist::kKeys;
  std::uint64_t h = side_ == Color::kO ? keys.side_o : 0;
  for (int c = 0; c < 2; ++c)
    for (Bitboard b = pieces_[c]; b;) h ^= keys.piece[c][pop_lsb(b)];
  for (Bitboard b = gaps_; b;) h ^= keys.gap[pop_lsb(b)];
  return h;
}

bool Position::is_legal(Move move) const {
  if (outcome(RuleSettings{.halfmove_limit = 0, .repetition_limit = 0}).is_over()) return false;
  const Bitboard own = pieces(side_);
  if (move.is_pass()) return !can_move(side_);
  if (move.from >= kNumSquares || move.to >= kNumSquares || !(empty() & bit(move.to))) return false;
  if (move.is_single()) return (dilate(own) & bit(move.to)) != 0;
  return (own & bit(move.from)) && (kJumpTargets[move.from] & bit(move.to));
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
