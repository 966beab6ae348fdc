// What a program says of itself: its version (CMakeLists.txt's project VERSION) and the commit it
// was built from.
#pragma once

#include <string>
#include <string_view>

namespace ataxx {

std::string_view version();   // "1.0.0"
// The commit's whole hash, with "-dirty" after it where the build had changes to tracked files; ""
// for a build outside a git checkout (a tarball).
std::string_view git_hash();
std::string version_text();  // "1.0.0 (8127c97)", "1.0.0 (8127c97-dirty)", or "1.0.0"

}  // namespace ataxx
