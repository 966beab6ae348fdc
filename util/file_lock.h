// An exclusive lock on a file (flock), held for the object's life and released by the kernel
// when the process dies however it dies: one writer per run directory.
#pragma once

#include <string>

namespace ataxx {

class FileLock {
 public:
  // Creates `path` if needed and locks it without waiting; throws std::runtime_error naming
  // `what` and the path when another process (or another FileLock) holds it.
  FileLock(const std::string& path, const std::string& what);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace ataxx
