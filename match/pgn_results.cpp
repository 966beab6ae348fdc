#include "match/pgn_results.h"

#include <algorithm>
#include <stdexcept>

#include "games/registry.h"
#include "util/text.h"

namespace ataxx {
namespace {

struct GameTags {
  std::string white, black, result, variant;
  int first_line = 0;
  bool any = false;
};

// `[Name "value"]`: the value, its \" and \\ escapes undone; "" for another tag than `name`.
std::string tag_value(std::string_view line, std::string_view name) {
  const bool named = line.size() > name.size() + 3 && line[0] == '[' && line.substr(1, name.size()) == name &&
                     line.substr(name.size() + 1, 2) == " \"";
  if (!named) return {};
  std::string value;
  for (std::size_t i = name.size() + 3; i < line.size() && line[i] != '"'; ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) ++i;
    value += line[i];
  }
  return value;
}

void add_game(const GameTags& game, const std::string& source, std::vector<PairResult>& results) {
  if (!game.any || game.result == "*") return;
  const std::string where = source + ":" + std::to_string(game.first_line);
  if (game.white.empty() || game.black.empty() || game.result.empty())
    throw std::runtime_error(where + ": a game without its White, Black and Result tags");
  // The result counts from the side that moves first (the game's first PGN colour: Ataxx's Black).
  double first_mover_points = 0;
  if (game.result == "1-0")
    first_mover_points = 1;
  else if (game.result == "1/2-1/2")
    first_mover_points = 0.5;
  else if (game.result != "0-1")
    throw std::runtime_error(where + ": result '" + game.result + "' is none of 1-0, 0-1, 1/2-1/2 or *");
  const std::string_view first_colour = [&] {
    try {
      return Games::with_game(game.variant.empty() ? Games::First::kName : std::string_view(game.variant),
                              []<typename G>() { return G::kPgnColours[0]; });
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(where + ": " + e.what());
    }
  }();
  const std::string& first_mover = first_colour == "White" ? game.white : game.black;
  const std::string& second_mover = first_colour == "White" ? game.black : game.white;
  auto pair = std::ranges::find_if(results, [&](const PairResult& r) {
    return (r.first == first_mover && r.second == second_mover) || (r.first == second_mover && r.second == first_mover);
  });
  if (pair == results.end()) pair = results.insert(results.end(), PairResult{first_mover, second_mover});
  const double first_points = pair->first == first_mover ? first_mover_points : 1 - first_mover_points;
  (first_points == 1 ? pair->first_wins : first_points == 0 ? pair->second_wins : pair->draws) += 1;
}

}  // namespace

void add_pgn_results(std::istream& in, const std::string& source, std::vector<PairResult>& results) {
  GameTags game;
  bool in_moves = false;
  int number = 0;
  for (std::string text; std::getline(in, text);) {
    ++number;
    const std::string_view line = trim(text);
    if (line.starts_with('[')) {
      if (in_moves) {
        add_game(game, source, results);
        game = {};
        in_moves = false;
      }
      if (!game.any) game.first_line = number;
      game.any = true;
      if (auto white = tag_value(line, "White"); !white.empty()) game.white = white;
      if (auto black = tag_value(line, "Black"); !black.empty()) game.black = black;
      if (auto result = tag_value(line, "Result"); !result.empty()) game.result = result;
      if (auto variant = tag_value(line, "Variant"); !variant.empty()) game.variant = variant;
    } else if (game.any) {
      in_moves = true;  // the tags end at the first other line, blank or the moves
    }
  }
  add_game(game, source, results);
}

}  // namespace ataxx
