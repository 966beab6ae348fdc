// A new directory of this process's own in the system's temporary folder (mkdtemp: a name no
// one could have planted a link at, mode 0700), removed with everything in it at the end.
#pragma once

#include <string>

namespace ataxx {

class TemporaryDirectory {
 public:
  // "ataxx-zero-bench" makes /tmp/ataxx-zero-bench-XXXXXX; throws std::runtime_error when it cannot.
  explicit TemporaryDirectory(const std::string& prefix);
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ataxx
