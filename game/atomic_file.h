// Shared by every layer (game/ holds the few standard-library utilities all of them use).
// Files written whole or not at all: the data goes to a temporary name beside the target, is
// flushed to disk, and is renamed over the target. A kill at any moment leaves either the old
// file or the new one.
#pragma once

#include <string>
#include <string_view>

namespace ataxx {

// Throws std::runtime_error naming the path when any step fails.
void write_file_atomically(const std::string& path, std::string_view contents);
void append_line(const std::string& path, std::string_view line);

}  // namespace ataxx
