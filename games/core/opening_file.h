// Opening suites' files: one position a line in the game's FEN, '#' starting a comment; and the
// merge of several suites.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ataxx {

// The positions of a file, each line's FEN read by `parse` (a game's from_fen). Throws
// std::runtime_error naming the file and line of a bad FEN or a finished position, or an empty,
// missing or unreadable file. A UTF-8 byte order mark (as some editors write) is passed over.
template <typename P>
std::vector<P> load_openings(const std::string& path, const std::function<P(const std::string&)>& parse) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw std::runtime_error("openings file '" + path + "' is a folder");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read openings file '" + path + "': " + std::strerror(errno));
  std::vector<P> openings;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    try {
      openings.push_back(parse(line));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
    }
    if (openings.back().outcome().is_over())
      throw std::runtime_error(path + ":" + std::to_string(number) + ": the position is already over");
  }
  if (openings.empty()) throw std::runtime_error("openings file '" + path + "' has no positions");
  return openings;
}

// Several suites merged one position of each in turn, so that any prefix holds some of every suite.
template <typename P>
std::vector<P> interleave(const std::vector<std::vector<P>>& suites) {
  std::vector<P> merged;
  for (std::size_t i = 0;; ++i) {
    const std::size_t before = merged.size();
    for (const auto& suite : suites)
      if (i < suite.size()) merged.push_back(suite[i]);
    if (merged.size() == before) return merged;
  }
}

}  // namespace ataxx
