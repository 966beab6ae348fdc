// The project's one tokenizer and number parser: player specs, UAI lines, CSV rows and config
// values all go through these.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ataxx {

// The fields between separators, empty ones kept: split("a,,b", ',') is {"a", "", "b"}; the
// empty text has no fields.
std::vector<std::string> split(std::string_view text, char separator);
// The runs of characters between blanks (spaces, tabs, carriage returns and newlines).
std::vector<std::string> split_words(std::string_view text);
// A word of a command line as a POSIX shell (and command_words) reads it back: quoted where it
// holds anything but letters, digits and _@%+=:,./-.
std::string shell_quoted(std::string_view word);
// A command line's words as a POSIX shell splits them, with no expansion: 'single quotes' keep
// everything, "double quotes" all but \" and \\, a backslash elsewhere keeps the next character.
// Throws std::invalid_argument for a quote that does not close.
std::vector<std::string> command_words(std::string_view text);
std::string_view trim(std::string_view text);
std::string lower_case(std::string text);  // ASCII letters
// The characters of UTF-8 text: its bytes less those that continue a character.
std::size_t utf8_length(std::string_view text);
// Orders names as people do (and `ls -v`): runs of digits by their value, so "gen-9999" comes
// before "gen-10000" and "x-9" before "x-10".
bool natural_less(std::string_view a, std::string_view b);
// The whole text as a number, or nothing (no partial reads, no blanks around it).
std::optional<long long> parse_integer(std::string_view text);
std::optional<double> parse_number(std::string_view text);

}  // namespace ataxx
