#include "match/match_impl.h"

namespace ataxx {

TimeControl parse_time_control(const std::string& text) {
  const auto plus = text.find('+');
  const std::optional<double> base = parse_number(text.substr(0, plus));
  const std::optional<double> increment = plus == std::string::npos ? 0.0 : parse_number(text.substr(plus + 1));
  constexpr double kMaxSeconds = 86'400;
  if (!base || !increment || !(*base > 0) || !(*increment >= 0) || *base > kMaxSeconds || *increment > kMaxSeconds)
    throw std::invalid_argument("time control '" + text + "': expected SECONDS or SECONDS+INCREMENT, e.g. 10+0.1");
  return {static_cast<int>(std::lround(*base * 1000)), static_cast<int>(std::lround(*increment * 1000))};
}

std::string to_string(const TimeControl& time_control) {
  auto seconds = [](int ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", ms / 1000.0);
    return std::string(text);
  };
  const std::string base = seconds(time_control.base_ms);
  return time_control.increment_ms == 0 ? base : base + "+" + seconds(time_control.increment_ms);
}

void MatchTally::add_points(double points) {
  score.add(points);
  if (!sprt || verdict != SprtVerdict::kContinue) return;
  llr = sprt_llr(score, sprt->elo0, sprt->elo1);
  verdict = sprt_verdict(score, *sprt);
}

// The match of each game, compiled here once.
#define ATAXX_INSTANTIATE_MATCH(G)                                                                                     \
  template BasicGameRecord<G> play_game<G>(BasicPlayer<G>&, BasicPlayer<G>&, const G::Position&, const G::Rules&,      \
                                           const std::optional<TimeControl>&, const std::function<bool()>&,            \
                                           const std::atomic<bool>*);                                                  \
  template BasicMatchResult<G> run_match<G>(const BasicMatchConfig<G>&,                                                \
                                            const std::function<void(const BasicGameRecord<G>&, const MatchScore&)>&); \
  template std::optional<double> nodes_per_second<G>(const BasicMatchResult<G>&, bool);                                \
  template std::string to_pgn<G>(const BasicGameRecord<G>&, const std::string&, const std::string&,                    \
                                 const std::string&, const std::optional<TimeControl>&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE_MATCH)
#undef ATAXX_INSTANTIATE_MATCH

}  // namespace ataxx
