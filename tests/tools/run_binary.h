// Runs the ataxx-zero binary for the tests of its commands.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ataxx {

struct Ran {
  int status = -1;
  std::string output;  // stdout and stderr
};

// A shell command line, its stdout and stderr.
inline Ran run_shell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  Ran ran;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) ran.output.append(buffer, n);
  const int status = pclose(pipe);
  ran.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ran;
}

// `ataxx-zero ARGS` with its scratch files in `temp`.
inline Ran run(const std::string& args, const std::string& temp = testing::TempDir()) {
  return run_shell("TMPDIR='" + temp + "' " + ATAXX_ZERO_BINARY + " " + args);
}

}  // namespace ataxx
