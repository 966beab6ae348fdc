#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "players/baseline_players.h"
#include "players/player.h"
#include "util/text.h"

namespace ataxx {
namespace {

[[noreturn]] void spec_error(const std::string& spec, const std::string& what) {
  throw std::invalid_argument("player '" + spec + "': " + what);
}

template <typename G>
struct Registry {
  std::mutex mutex;
  std::map<std::string, BasicPlayerFactory<G>> factories;
};

template <typename G>
Registry<G>& registry() {
  static Registry<G> instance;
  static std::once_flag builtins;
  std::call_once(builtins, [] { register_builtin_players<G>(instance.factories); });
  return instance;
}

}  // namespace

namespace {

// The key=value items of a spec's options, split at the commas outside double quotes; a value in
// double quotes (model="runs/a,b/models/best") is taken without them.
std::vector<std::pair<std::string, std::string>> spec_options(std::string_view options, const std::string& spec) {
  std::vector<std::pair<std::string, std::string>> items;
  std::size_t at = 0;
  while (true) {
    const std::size_t equals = options.find_first_of("=,", at);
    if (equals == std::string_view::npos || options[equals] != '=' || equals == at)
      spec_error(spec, "option '" + std::string(options.substr(at, options.find(',', at) - at)) + "' is not key=value");
    std::string key(options.substr(at, equals - at));
    std::size_t end;
    std::string value;
    if (equals + 1 < options.size() && options[equals + 1] == '"') {
      const std::size_t close = options.find('"', equals + 2);
      if (close == std::string_view::npos) spec_error(spec, "option '" + key + "': its value's quote is not closed");
      value = options.substr(equals + 2, close - equals - 2);
      end = close + 1;
      if (end < options.size() && options[end] != ',')
        spec_error(spec, "option '" + key + "': a comma must follow its quoted value");
    } else {
      end = std::min(options.find(',', equals), options.size());
      value = options.substr(equals + 1, end - equals - 1);
    }
    items.emplace_back(std::move(key), std::move(value));
    if (end >= options.size()) return items;
    at = end + 1;
  }
}

}  // namespace

PlayerSpec::PlayerSpec(std::string_view text) : text_(text) {
  const std::size_t colon = text.find(':');
  kind_ = std::string(text.substr(0, colon));
  if (kind_.empty()) spec_error(text_, "no player kind");
  if (colon == std::string_view::npos) return;
  for (auto& [key, value] : spec_options(text.substr(colon + 1), text_))
    if (!options_.emplace(key, std::move(value)).second) spec_error(text_, "option '" + key + "' given twice");
}

std::optional<std::string> PlayerSpec::take(const std::string& key) {
  const auto it = options_.find(key);
  if (it == options_.end()) return std::nullopt;
  std::string value = std::move(it->second);
  options_.erase(it);
  return value;
}

int PlayerSpec::get_int(const std::string& key, int fallback, int min, int max) {
  const auto taken = take(key);
  if (!taken) return fallback;
  const auto value = parse_integer(*taken);
  if (!value || *value < min || *value > max)
    spec_error(text_, key + "=" + *taken + " is not an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return static_cast<int>(*value);
}

double PlayerSpec::get_double(const std::string& key, double fallback, double min, double max) {
  const auto taken = take(key);
  if (!taken) return fallback;
  const auto value = parse_number(*taken);
  if (!value || *value < min || *value > max)
    spec_error(text_, key + "=" + *taken + " is not a number in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return *value;
}

std::string PlayerSpec::get_string(const std::string& key, const std::string& fallback) {
  return take(key).value_or(fallback);
}

std::map<std::string, std::string> PlayerSpec::take_rest() { return std::exchange(options_, {}); }

void PlayerSpec::finish() const {
  if (options_.empty()) return;
  std::string names;
  for (const auto& [key, value] : options_) names += (names.empty() ? "" : ", ") + key;
  spec_error(text_, "unknown option(s) for " + kind_ + ": " + names);
}

template <typename G>
typename G::MoveList moves_to_search(const typename G::Game& game, const MoveLimits& limits) {
  typename G::MoveList moves;
  if (!game.outcome().is_over()) game.position().generate_moves(moves);
  if (moves.empty()) throw std::logic_error("asked for a move in a finished game: " + game.position().fen());
  if (limits.search_moves.empty()) return moves;
  typename G::MoveList named;
  for (const auto move : moves)
    if (std::ranges::find(limits.search_moves, G::move_text(move, game.position())) != limits.search_moves.end())
      named.push_back(move);
  if (named.empty()) throw std::invalid_argument("searchmoves names none of the legal moves");
  return named;
}
#define ATAXX_INSTANTIATE(G) template G::MoveList moves_to_search<G>(const G::Game&, const MoveLimits&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

template <typename G>
void register_player_kind(const std::string& kind, std::type_identity_t<BasicPlayerFactory<G>> factory) {
  Registry<G>& r = registry<G>();
  std::lock_guard lock(r.mutex);
  r.factories[kind] = std::move(factory);
}

template <typename G>
std::unique_ptr<BasicPlayer<G>> make_player(std::string_view text) {
  PlayerSpec spec(text);
  BasicPlayerFactory<G> factory;
  {
    Registry<G>& r = registry<G>();
    std::lock_guard lock(r.mutex);
    const auto it = r.factories.find(spec.kind());
    if (it == r.factories.end()) {
      std::string known;
      for (const auto& entry : r.factories) known += (known.empty() ? "" : ", ") + entry.first;
      spec_error(spec.text(), "unknown player kind '" + spec.kind() + "' (known: " + known + ")");
    }
    factory = it->second;
  }
  auto player = factory(spec);
  spec.finish();
  return player;
}

#define ATAXX_INSTANTIATE(G)                                                                            \
  template void register_player_kind<G>(const std::string&, std::type_identity_t<BasicPlayerFactory<G>>); \
  template std::unique_ptr<BasicPlayer<G>> make_player<G>(std::string_view);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
