#include "games/ataxx/openings.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <unordered_set>

#include "games/core/opening_file.h"
#include "util/atomic_file.h"

namespace ataxx {
namespace {

void expand(const Position& pos, int plies, std::unordered_set<std::uint64_t>& seen, std::vector<Position>& out) {
  if (pos.outcome().is_over()) return;
  if (plies == 0) {
    if (seen.insert(pos.hash()).second) out.push_back(pos);
    return;
  }
  MoveList moves;
  pos.generate_moves(moves);
  for (const Move move : moves) {
    Position child = pos;
    child.make_move(move);
    expand(child, plies - 1, seen, out);
  }
}

}  // namespace

std::vector<Position> generate_openings(const Position& root, int plies, std::uint64_t seed) {
  std::unordered_set<std::uint64_t> seen;
  std::vector<Position> openings;
  expand(root, plies, seen, openings);
  std::shuffle(openings.begin(), openings.end(), std::mt19937_64(seed));
  return openings;
}

std::vector<Position> default_openings(const Board& board) { return generate_openings(Position::startpos(board), 2); }

std::vector<Position> board_openings(const Board& board, const std::string& file) {
  if (file.empty()) return default_openings(board);
  std::vector<Position> openings = load_openings(file);
  for (const Position& pos : openings)
    if (&pos.board() != &board)
      throw std::runtime_error("openings file '" + file + "' holds a " + std::string(pos.board().name) + " position (" +
                               pos.fen() + ") where " + std::string(board.name) + " openings are expected");
  return openings;
}

std::vector<Position> load_openings(const std::string& path) {
  return load_openings<Position>(path, [](const std::string& fen) { return Position::from_fen(fen); });
}

void save_openings(const std::string& path, const std::vector<Position>& openings, const std::string& comment) {
  std::string text = "# " + comment + "\n";
  for (const Position& pos : openings) text += pos.fen() + "\n";
  write_file_atomically(path, text);
}

}  // namespace ataxx
