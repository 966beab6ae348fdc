// A child process with its stdin and stdout on pipes, read line by line with deadlines: how we
// talk to external UAI engines.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace ataxx {

class EngineProcess {
 public:
  // Runs `command`, a program and its arguments separated by blanks, with no shell between
  // (posix_spawn; no quotes, variables or redirections). Throws std::runtime_error when it
  // cannot start.
  explicit EngineProcess(const std::string& command);
  ~EngineProcess();  // sends quit, then kills the process if it lingers
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Throws when the engine no longer reads.
  void send(const std::string& line);
  // The next line; throws when the engine exits or the deadline passes.
  std::string read_line(std::chrono::steady_clock::time_point deadline);
  // Reads until a line starting with `prefix` and returns it; each line before it goes to
  // `passed_over`, where given (an engine's info lines before its bestmove). Once `stop` is set,
  // where given, the engine is sent `stop` (once) and its answer awaited as before.
  std::string expect(const std::string& prefix, int timeout_ms,
                     const std::function<void(const std::string&)>& passed_over = {},
                     const std::atomic<bool>* stop = nullptr);

 private:
  // The next line, or none once `until` has passed.
  std::optional<std::string> next_line(std::chrono::steady_clock::time_point until);

  std::string command_;
  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  std::string buffer_;
};

}  // namespace ataxx
