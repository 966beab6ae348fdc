// Where paths lie, for commands that must not write into what they read.
#pragma once

#include <filesystem>

namespace ataxx {

// Whether `path` is `folder` or lies inside it, by where they are (links followed, "." and ".."
// and trailing slashes read as a shell reads them), whether `path` exists yet or not.
inline bool is_inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::weakly_canonical(path, error)
                                             .lexically_relative(std::filesystem::weakly_canonical(folder, error));
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace ataxx
