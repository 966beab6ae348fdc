#include "util/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "util/process.h"
#include "util/text.h"

namespace ataxx {
namespace {

// Names the file the caller asked for, never the temporary beside it.
[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(errno));
}

void write_all(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", path);
    }
    data.remove_prefix(static_cast<std::size_t>(written));
  }
}

constexpr std::string_view kTemporaryMark = ".tmp.";

}  // namespace

void write_file_atomically(const std::string& path, std::string_view contents) {
  static const std::string suffix = std::string(kTemporaryMark) + host_name() + "." + std::to_string(::getpid());
  const std::string temporary = path + suffix;
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot write", path);
  try {
    write_all(fd, contents, path);
    if (::fsync(fd) != 0) fail("cannot write", path);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  ::close(fd);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    fail("cannot write", path);
  }
}

void append_line(const std::string& path, std::string_view line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot open", path);
  std::string text(line);
  text += '\n';
  try {
    write_all(fd, text, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

bool is_abandoned_temporary(std::string_view file_name) {
  const std::size_t mark = file_name.rfind(kTemporaryMark);
  if (mark == std::string_view::npos) return false;
  const std::string_view writer = file_name.substr(mark + kTemporaryMark.size());  // HOST.PID
  const std::size_t dot = writer.rfind('.');
  if (dot == std::string_view::npos || writer.substr(0, dot) != host_name()) return false;
  const auto pid = parse_integer(writer.substr(dot + 1));
  return pid && *pid > 0 && ::kill(static_cast<pid_t>(*pid), 0) != 0 && errno == ESRCH;
}

}  // namespace ataxx
