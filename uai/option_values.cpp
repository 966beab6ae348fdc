#include "uai/option_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "util/text.h"

namespace ataxx {

int read_integer(const std::string& text, const std::string& what) {
  constexpr long long kBound = 1'000'000'000;
  const auto value = parse_integer(text);
  const bool digits =
      text.find_first_not_of("0123456789", text.starts_with('-') || text.starts_with('+')) == std::string::npos &&
      text.find_first_of("0123456789") != std::string::npos;
  if (!value) throw std::invalid_argument(what + " '" + text + "' is " + (digits ? "out of range" : "not an integer"));
  return static_cast<int>(std::clamp<long long>(*value, -kBound, kBound));
}

int read_spin(const std::string& option, const std::string& value, int min, int max) {
  const auto number = parse_integer(value);
  if (!number || *number < min || *number > max)
    throw std::invalid_argument(fmt::format("{} '{}' is not a whole number from {} to {}", option, value, min, max));
  return static_cast<int>(*number);
}

bool read_check(const std::string& option, const std::string& value) {
  const std::string flag = lower_case(value);
  if (flag != "true" && flag != "false")
    throw std::invalid_argument(option + " '" + value + "' is neither true nor false");
  return flag == "true";
}

std::optional<float> read_search_parameter(const std::string& option, const std::string& value, double min,
                                           double max) {
  if (lower_case(value) == "auto") return std::nullopt;
  const auto number = parse_number(value);
  if (!number || !(*number >= min && *number <= max))
    throw std::invalid_argument(
        fmt::format("{} '{}' is neither auto nor a number from {} to {}", option, value, min, max));
  return static_cast<float>(*number);
}

}  // namespace ataxx
