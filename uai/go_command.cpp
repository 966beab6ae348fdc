#include "uai/go_command.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "uai/option_values.h"
#include "util/text.h"

namespace ataxx {
namespace {

// The go line's keys that take a number, and what each sets.
using GoNumber = void (*)(GoLine&, int);
constexpr std::pair<std::string_view, GoNumber> kGoNumbers[] = {
    {"wtime", [](GoLine& go, int ms) { go.white_ms = std::max(0, ms); }},
    {"btime", [](GoLine& go, int ms) { go.black_ms = std::max(0, ms); }},
    {"winc", [](GoLine& go, int ms) { go.white_increment_ms = ms; }},
    {"binc", [](GoLine& go, int ms) { go.black_increment_ms = ms; }},
    {"movestogo", [](GoLine& go, int moves) { go.moves_to_go = moves; }},
    {"movetime", [](GoLine& go, int ms) { go.limits.movetime_ms = std::max(1, ms - 5); }},  // answering takes a few ms
    {"nodes", [](GoLine& go, int nodes) { go.limits.nodes = std::max(1, nodes); }},
    {"depth", [](GoLine& go, int depth) { go.limits.depth = std::max(1, depth); }},
    {"mate", [](GoLine& go, int moves) { go.limits.mate = std::max(1, moves); }},
};

const GoNumber* go_number(std::string_view key) {
  for (const auto& [name, set] : kGoNumbers)
    if (name == key) return &set;
  return nullptr;
}

bool is_go_key(std::string_view token) {
  return token == "infinite" || token == "ponder" || token == "searchmoves" || go_number(token);
}

}  // namespace

GoLine read_go(std::string_view args) {
  const auto tokens = split_words(args);
  GoLine go;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& key = tokens[i];
    if (key == "infinite" || key == "ponder") {
      (key == "ponder" ? go.ponder : go.limits.infinite) = true;
    } else if (key == "searchmoves") {
      while (i + 1 < tokens.size() && !is_go_key(tokens[i + 1])) go.search_moves.push_back(tokens[++i]);
    } else if (const GoNumber* set = go_number(key)) {
      if (i + 1 >= tokens.size()) throw std::invalid_argument("go " + key + " without a value");
      (*set)(go, read_integer(tokens[++i], "go " + key));
    } else {
      go.skipped.push_back(key);
    }
  }
  return go;
}

GameClock clock_of(const GoLine& go, bool white, int move_overhead_ms) {
  const int white_increment = std::max(0, go.white_increment_ms), black_increment = std::max(0, go.black_increment_ms);
  return {.own_ms = white ? go.white_ms : go.black_ms,
          .own_increment_ms = white ? white_increment : black_increment,
          .opponent_ms = white ? go.black_ms : go.white_ms,
          .opponent_increment_ms = white ? black_increment : white_increment,
          .moves_to_go = std::max(0, go.moves_to_go),
          .move_overhead_ms = move_overhead_ms};
}

}  // namespace ataxx
