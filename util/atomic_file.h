// Files written whole or not at all: the data goes to a temporary name beside the target, is
// flushed to disk, and is renamed over the target. A kill at any moment leaves either the old
// file or the new one, and at worst a temporary named "TARGET.tmp.HOST.PID".
#pragma once

#include <string>
#include <string_view>

namespace ataxx {

// Throws std::runtime_error naming the path when any step fails.
void write_file_atomically(const std::string& path, std::string_view contents);
// Appends the line and a newline in one write.
void append_line(const std::string& path, std::string_view line);

// Whether file_name is a temporary left by a writer on this host that is no longer running.
// Temporaries of other hosts (a run directory shared over NFS) are never called abandoned: their
// writers cannot be checked from here.
bool is_abandoned_temporary(std::string_view file_name);

}  // namespace ataxx
