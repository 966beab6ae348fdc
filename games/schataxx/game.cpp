#include "games/schataxx/game.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <unordered_set>

namespace ataxx::schataxx {

Game::Game(const Position& start, Rules rules) : start_(start), position_(start), rules_(rules) {
  hashes_.push_back(position_.hash());
}

void Game::play(Move move) {
  if (outcome().is_over()) throw std::invalid_argument("move " + to_string(move) + ": the game is over");
  if (!position_.is_legal(move))
    throw std::invalid_argument("move " + to_string(move) + " is not legal in " + position_.fen());
  position_.make_move(move);
  moves_.push_back(move);
  if (move.is_drop()) hashes_.clear();
  hashes_.push_back(position_.hash());
}

int Game::repetitions() const { return static_cast<int>(std::count(hashes_.begin(), hashes_.end(), hashes_.back())); }

Outcome Game::outcome() const {
  const Outcome by_position = position_.outcome(rules_);
  if (by_position.is_over()) return by_position;
  if (rules_.repetition_limit > 0 && repetitions() >= rules_.repetition_limit)
    return {position_.result_by_area(), EndReason::kRepetition};
  return {};
}

std::vector<Position> positions_after(const Position& root, int plies) {
  std::vector<Position> level = {root};
  for (int ply = 0; ply < plies; ++ply) {
    std::vector<Position> next;
    std::unordered_set<std::uint64_t> seen;
    for (const Position& pos : level) {
      MoveList moves;
      pos.generate_moves(moves);
      for (const Move move : moves) {
        Position child = pos;
        child.make_move(move);
        if (!child.outcome().is_over() && seen.insert(child.hash()).second) next.push_back(child);
      }
    }
    level = std::move(next);
  }
  return level;
}

namespace {

bool wins_at_once(const Position& pos) {
  MoveList moves;
  pos.generate_moves(moves);
  for (const Move move : moves) {
    Position child = pos;
    child.make_move(move);
    if (result_for(pos.side_to_move(), child.outcome().result) > 0) return true;
  }
  return false;
}

}  // namespace

std::vector<Position> opening_suite(Variant variant) {
  std::vector<Position> suite = positions_after(Position::startpos(variant), 2);
  std::erase_if(suite, wins_at_once);
  std::mt19937_64 rng(0x5c4a7a);
  for (std::size_t i = suite.size(); i > 1; --i)  // Fisher-Yates by hand: std::shuffle's order is the library's
    std::swap(suite[i - 1], suite[rng() % i]);
  return suite;
}

namespace {

bool finished(const Position& pos, int ply_limit) { return ply_limit > 0 && pos.plies_since_drop() >= ply_limit; }

}  // namespace

std::uint64_t perft(const Position& pos, int depth, int ply_limit) {
  if (depth == 0) return 1;
  if (finished(pos, ply_limit)) return 0;
  MoveList moves;
  pos.generate_moves(moves);
  if (depth == 1) return moves.size();
  std::uint64_t leaves = 0;
  for (const Move move : moves) {
    Position child = pos;
    child.make_move(move);
    leaves += perft(child, depth - 1, ply_limit);
  }
  return leaves;
}

std::vector<std::pair<Move, std::uint64_t>> perft_split(const Position& pos, int depth, int ply_limit) {
  std::vector<std::pair<Move, std::uint64_t>> split;
  if (depth == 0 || finished(pos, ply_limit)) return split;
  MoveList moves;
  pos.generate_moves(moves);
  for (const Move move : moves) {
    Position child = pos;
    child.make_move(move);
    split.emplace_back(move, perft(child, depth - 1, ply_limit));
  }
  return split;
}

}  // namespace ataxx::schataxx
