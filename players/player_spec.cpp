#include <fmt/format.h>

#include "players/player_impl.h"

namespace ataxx {

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
    spec_error(text_, fmt::format("{}={} is not a number in [{:g}, {:g}]", key, *taken, min, max));
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

#define ATAXX_INSTANTIATE(G)                                                                              \
  template G::MoveList moves_to_search<G>(const G::Game&, const MoveLimits&);                             \
  template void register_player_kind<G>(const std::string&, std::type_identity_t<BasicPlayerFactory<G>>); \
  template std::unique_ptr<BasicPlayer<G>> make_player<G>(std::string_view);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
