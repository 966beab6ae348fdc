// Nets carried inside a program (its build's nets/, tools/built_in_nets.cpp.in), read as model files
// are, under paths no file takes: "built-in:FILE". A program copied alone still plays its nets.
// Plain C++.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ataxx {

inline constexpr std::string_view kBuiltInPrefix = "built-in:";

struct BuiltInNet {
  std::string path;  // "built-in:FILE"
  std::string_view bytes;
};

// Adds `bytes`, which must live as long as the program, as "built-in:FILE"; at the program's start,
// before any thread reads a model.
void add_built_in_net(std::string_view file_name, std::string_view bytes);
// In the order added.
const std::vector<BuiltInNet>& built_in_nets();
// The bytes of the built-in net at `path`; nullopt where `path` does not start with kBuiltInPrefix.
// Throws ModelFileError for a built-in path that names no net this program carries.
std::optional<std::string_view> built_in_net(std::string_view path);

}  // namespace ataxx
