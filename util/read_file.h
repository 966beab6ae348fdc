// A whole file read into memory, its bytes as they are. Model files go through read_model_file
// (nn/model_container.h), which serves the built-in nets too and keeps nn/ free of util/.
#pragma once

#include <string>

namespace ataxx {

// The file's bytes, unchanged; throws std::runtime_error naming the path when it cannot be read.
std::string read_whole_file(const std::string& path);

}  // namespace ataxx
