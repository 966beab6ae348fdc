// Child processes, started with posix_spawn: unlike fork followed by anything that allocates, it
// cannot deadlock a multithreaded parent on a lock another thread held at the fork.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace ataxx {

struct ChildWithPipes {
  pid_t pid = -1;
  int to_child = -1;    // the child's stdin
  int from_child = -1;  // the child's stdout
};

// Runs argv[0] (searched in PATH) with pipes on its stdin and stdout; its stderr is ours.
// Throws std::runtime_error when the pipes or the process cannot be made.
ChildWithPipes spawn_with_pipes(const std::vector<std::string>& argv);

// Runs argv[0] (searched in PATH) in directory `cwd`, its stdout and stderr appended to
// `log_path`, no shell involved; waits for it. Returns its exit status, or -1 when it could not
// start or died of a signal.
int run_and_wait(const std::vector<std::string>& argv, const std::string& cwd, const std::string& log_path);

// Whether a directory of PATH holds an executable `program`.
bool on_path(const std::string& program);

// This machine's host name, as temporary files and chunk names carry it.
std::string host_name();

}  // namespace ataxx
