// What a program says of itself: its version (CMakeLists.txt's project VERSION) and the commit it
// was built from.
#pragma once

#include <string>
#include <string_view>

namespace ataxx {

std::string_view version();   // "1.0.0"
std::string_view git_hash();  // "8127c97", "8127c97-dirty" (built with changes), "" outside a git checkout
std::string version_text();   // "1.0.0 (8127c97)", or "1.0.0"

}  // namespace ataxx
