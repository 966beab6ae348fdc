// The entries of a zip archive held in memory, read from its central directory (zip64 included),
// as LibTorch writes its archives: tensors and pickles stored, not compressed. Plain C++.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ataxx {

class ZipError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class StoredZip {
 public:
  // A view of `bytes`, which must outlive it; throws ZipError when they are not a whole zip archive.
  explicit StoredZip(std::string_view bytes);

  bool contains(const std::string& name) const { return entries_.contains(name); }
  std::vector<std::string> names() const;
  // The bytes of an entry stored without compression; throws ZipError for a missing or
  // compressed one.
  std::string_view stored(const std::string& name) const;

 private:
  struct Entry {
    std::uint16_t method = 0;  // 0: stored
    std::string_view data;     // the entry's bytes as they are in the archive
  };
  std::map<std::string, Entry> entries_;
};

}  // namespace ataxx
