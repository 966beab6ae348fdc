#include "match/openings.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>
#include <unordered_set>

#include "games/ataxx/game.h"
#include "games/schataxx/position.h"
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

std::vector<Position> balanced_openings(const std::vector<Position>& openings, Player& judge, int max_cp,
                                        std::size_t count) {
  std::vector<Position> balanced;
  for (const Position& pos : openings) {
    if (balanced.size() >= count) break;
    judge.new_game(balanced.size());
    judge.choose_move(Game(pos));
    if (std::abs(judge.last_report().score_cp) <= max_cp) balanced.push_back(pos);
  }
  return balanced;
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

std::vector<Position> interleave(const std::vector<std::vector<Position>>& suites) {
  std::vector<Position> merged;
  for (std::size_t i = 0;; ++i) {
    const std::size_t before = merged.size();
    for (const auto& suite : suites)
      if (i < suite.size()) merged.push_back(suite[i]);
    if (merged.size() == before) return merged;
  }
}

template <typename P>
std::vector<P> load_openings(const std::string& path, const std::function<P(const std::string&)>& parse) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read openings file '" + path + "'");
  std::vector<P> openings;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    try {
      openings.push_back(parse(line));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
    }
    if (openings.back().outcome().is_over())
      throw std::runtime_error(path + ":" + std::to_string(number) + ": the position is already over");
  }
  if (openings.empty()) throw std::runtime_error("openings file '" + path + "' has no positions");
  return openings;
}
template std::vector<Position> load_openings(const std::string&, const std::function<Position(const std::string&)>&);
template std::vector<schataxx::Position> load_openings(const std::string&,
                                                       const std::function<schataxx::Position(const std::string&)>&);

std::vector<Position> load_openings(const std::string& path) {
  return load_openings<Position>(path, [](const std::string& fen) { return Position::from_fen(fen); });
}

void save_openings(const std::string& path, const std::vector<Position>& openings, const std::string& comment) {
  std::string text = "# " + comment + "\n";
  for (const Position& pos : openings) text += pos.fen() + "\n";
  write_file_atomically(path, text);
}

}  // namespace ataxx
