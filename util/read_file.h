// A whole file read into memory: the one way the project reads a file it takes as it is.
#pragma once

#include <string>

namespace ataxx {

// The file's bytes, unchanged; throws std::runtime_error naming the path when it cannot be read.
std::string read_whole_file(const std::string& path);

}  // namespace ataxx
