#include "players/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <stdexcept>

#include "util/process.h"
#include "util/text.h"

namespace ataxx {

using Clock = std::chrono::steady_clock;

EngineProcess::EngineProcess(const std::string& command) : command_(command) {
  const std::vector<std::string> argv = command_words(command);
  if (argv.empty()) throw std::runtime_error("uai engine: no command");
  const ChildWithPipes child = spawn_with_pipes(argv);
  pid_ = child.pid;
  in_ = child.to_child;
  out_ = child.from_child;
}

EngineProcess::~EngineProcess() {
  try {
    send("quit");
  } catch (const std::runtime_error&) {
    // Already gone: nothing to ask.
  }
  ::close(in_);
  for (int i = 0; i < 20 && ::waitpid(pid_, nullptr, WNOHANG) == 0; ++i) ::usleep(10'000);
  if (::waitpid(pid_, nullptr, WNOHANG) == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  ::close(out_);
}

void EngineProcess::send(const std::string& line) {
  const std::string text = line + "\n";
  // A dead engine makes write fail with EPIPE; SIGPIPE must not end this process.
  static const bool ignored = [] { return std::signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  (void)ignored;
  if (::write(in_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    throw std::runtime_error("uai engine '" + command_ + "' is not reading (crashed?)");
}

std::optional<std::string> EngineProcess::next_line(Clock::time_point until) {
  while (true) {
    const auto newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) return std::nullopt;
    pollfd fd{out_, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(left)) <= 0) continue;
    char chunk[4096];
    const ssize_t got = ::read(out_, chunk, sizeof chunk);
    if (got <= 0) throw std::runtime_error("uai engine '" + command_ + "' exited");
    buffer_.append(chunk, got);
  }
}

std::string EngineProcess::read_line(Clock::time_point deadline) {
  std::optional<std::string> line = next_line(deadline);
  if (!line) throw std::runtime_error("uai engine '" + command_ + "' timed out");
  return std::move(*line);
}

std::string EngineProcess::expect(const std::string& prefix, int timeout_ms,
                                  const std::function<void(const std::string&)>& passed_over,
                                  const std::atomic<bool>* stop) {
  constexpr auto kStopLookedAtEvery = std::chrono::milliseconds(20);
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  bool stop_sent = false;
  while (true) {
    if (stop && !stop_sent && stop->load()) {
      send("stop");
      stop_sent = true;
    }
    const bool watching = stop && !stop_sent;
    std::optional<std::string> line =
        next_line(watching ? std::min(deadline, Clock::now() + kStopLookedAtEvery) : deadline);
    if (!line && Clock::now() >= deadline) line = read_line(deadline);  // which says it timed out
    if (!line) continue;
    if (line->starts_with(prefix)) return std::move(*line);
    if (passed_over) passed_over(*line);
  }
}

}  // namespace ataxx
