// The values UAI's commands carry, read strictly: a bad one throws std::invalid_argument with a
// message fit for an `info string error`.
#pragma once

#include <optional>
#include <string>

namespace ataxx {

// An integer, clamped to +/- 10^9 (so that no option's arithmetic can overflow).
int read_integer(const std::string& text, const std::string& what);
// A spin option's value: an integer from min to max.
int read_spin(const std::string& option, const std::string& value, int min, int max);
// A check option's value: true or false, in any case.
bool read_check(const std::string& option, const std::string& value);
// A search parameter's value: "auto" (nullopt: the network player's default for the game) or a
// number from min to max.
std::optional<float> read_search_parameter(const std::string& option, const std::string& value, double min, double max);

}  // namespace ataxx
