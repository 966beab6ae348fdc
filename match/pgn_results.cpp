#include "match/pgn_results.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>
#include <vector>

#include "games/registry.h"
#include "util/text.h"

namespace ataxx {
namespace {

struct GameTags {
  std::string white, black, result, variant;
  std::string moves;  // the movetext, its {comments} left out
  int first_line = 0;
  bool any = false;
};

struct TagPair {
  std::string name, value;
};

// `[Name "value"]`, the value's \" and \\ escapes undone; nullopt for a line that is not one.
std::optional<TagPair> tag_pair(std::string_view line) {
  const auto space = line.find(' ');
  if (line.size() < 6 || line.front() != '[' || !line.ends_with("\"]") || space == std::string_view::npos ||
      space < 2 || line[space + 1] != '"')
    return std::nullopt;
  TagPair tag{std::string(line.substr(1, space - 1)), ""};
  if (!std::ranges::all_of(tag.name, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
    return std::nullopt;
  const std::size_t closing = line.size() - 2;
  for (std::size_t i = space + 2; i < closing; ++i) {
    if (line[i] == '"') return std::nullopt;  // a quote inside the value, not escaped
    if (line[i] == '\\' && i + 1 < closing) ++i;
    tag.value += line[i];
  }
  return tag;
}

bool is_result(std::string_view token) {
  return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

// Whether the game was a player's against itself, which says nothing of its strength: left out.
bool add_game(const GameTags& game, const std::string& source, std::vector<PairResult>& results) {
  if (!game.any || game.result == "*") return false;
  const std::string where = source + ":" + std::to_string(game.first_line);
  if (game.white.empty() || game.black.empty() || game.result.empty())
    throw std::runtime_error(where + ": a game without its White, Black and Result tags");
  const std::vector<std::string> words = split_words(game.moves);
  if (!words.empty() && is_result(words.back()) && words.back() != game.result)
    throw std::runtime_error(where + ": the moves end with " + words.back() + " where the Result tag says " +
                             game.result);
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
  if (first_mover == second_mover) return true;
  auto pair = std::ranges::find_if(results, [&](const PairResult& r) {
    return (r.first == first_mover && r.second == second_mover) || (r.first == second_mover && r.second == first_mover);
  });
  if (pair == results.end()) pair = results.insert(results.end(), PairResult{first_mover, second_mover});
  const double first_points = pair->first == first_mover ? first_mover_points : 1 - first_mover_points;
  (first_points == 1 ? pair->first_wins : first_points == 0 ? pair->second_wins : pair->draws) += 1;
  return false;
}

}  // namespace

int add_pgn_results(std::istream& in, const std::string& source, std::vector<PairResult>& results) {
  int against_itself = 0;
  GameTags game;
  bool in_moves = false, in_comment = false;
  int comment_line = 0;  // where the open comment began
  int number = 0;
  for (std::string text; std::getline(in, text);) {
    ++number;
    const std::string_view line = trim(text);
    if (line.starts_with('[') && !in_comment) {
      if (in_moves) {
        against_itself += add_game(game, source, results);
        game = {};
        in_moves = false;
      }
      if (!game.any) game.first_line = number;
      game.any = true;
      const std::optional<TagPair> tag = tag_pair(line);
      if (!tag)
        throw std::runtime_error(source + ":" + std::to_string(number) + ": '" + std::string(line.substr(0, 80)) +
                                 "' is not a tag pair ([Name \"value\"])");
      if (tag->name == "White") game.white = tag->value;
      if (tag->name == "Black") game.black = tag->value;
      if (tag->name == "Result") game.result = tag->value;
      if (tag->name == "Variant") game.variant = tag->value;
    } else if (game.any) {
      in_moves = true;  // the tags end at the first other line, blank or the moves
      for (const char c : line) {  // comments may span lines
        if (c == '{' && !in_comment) comment_line = number;
        if (c == '{' || c == '}') in_comment = c == '{';
        if (!in_comment && c != '}') game.moves += c;
      }
      game.moves += ' ';
    }
  }
  if (in_comment)  // every game after it would have been read as its text
    throw std::runtime_error(source + ":" + std::to_string(comment_line) + ": a comment ({) that never closes");
  return against_itself + add_game(game, source, results);
}

}  // namespace ataxx
