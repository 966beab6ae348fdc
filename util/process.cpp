#include "util/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace ataxx {
namespace {

// posix_spawn's file actions, released on every path.
class FileActions {
 public:
  FileActions() { ::posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { ::posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::invalid_argument("spawn: no program given");
  std::vector<char*> out;
  for (const std::string& arg : argv) out.push_back(const_cast<char*>(arg.c_str()));
  out.push_back(nullptr);
  return out;
}

pid_t spawn(const std::vector<std::string>& argv, FileActions& actions) {
  auto args = c_argv(argv);
  pid_t pid = -1;
  const int error = ::posix_spawnp(&pid, args[0], actions.get(), nullptr, args.data(), environ);
  if (error != 0) throw std::runtime_error("cannot start '" + argv[0] + "': " + std::strerror(error));
  return pid;
}

}  // namespace

ChildWithPipes spawn_with_pipes(const std::vector<std::string>& argv) {
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0)
    throw std::runtime_error("cannot create a pipe: " + std::string(std::strerror(errno)));
  if (::pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    throw std::runtime_error("cannot create a pipe: " + std::string(std::strerror(errno)));
  }
  FileActions actions;
  // dup2 clears close-on-exec on the copies, so only these two ends reach the child.
  ::posix_spawn_file_actions_adddup2(actions.get(), to_child[0], STDIN_FILENO);
  ::posix_spawn_file_actions_adddup2(actions.get(), from_child[1], STDOUT_FILENO);
  ChildWithPipes child;
  try {
    child.pid = spawn(argv, actions);
  } catch (...) {
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) ::close(fd);
    throw;
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  child.to_child = to_child[1];
  child.from_child = from_child[0];
  return child;
}

int run_and_wait(const std::vector<std::string>& argv, const std::string& cwd, const std::string& log_path) {
  FileActions actions;
  ::posix_spawn_file_actions_addchdir_np(actions.get(), cwd.c_str());
  ::posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
  ::posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  try {
    pid = spawn(argv, actions);
  } catch (const std::runtime_error&) {
    return -1;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (::access(((dir.empty() ? "." : dir) + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

}  // namespace ataxx
