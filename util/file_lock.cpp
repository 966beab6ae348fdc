#include "util/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ataxx {

FileLock::FileLock(const std::string& path, const std::string& what) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open lock file '" + path + "': " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    if (error == EWOULDBLOCK)
      throw std::runtime_error(what + " is in use: another process holds '" + path + "'");
    throw std::runtime_error("cannot lock '" + path + "': " + std::strerror(error));
  }
}

FileLock::~FileLock() { ::close(fd_); }  // closing releases the lock

}  // namespace ataxx
