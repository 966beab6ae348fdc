#include "nn/stored_zip.h"

#include <cstring>
#include <limits>

namespace ataxx {
namespace {

// Little-endian fields at offsets of a checked record.
class Reader {
 public:
  Reader(std::string_view bytes, std::uint64_t at, std::uint64_t size, const char* what) {
    if (at > bytes.size() || size > bytes.size() - at)
      throw ZipError(std::string("zip: ") + what + " lies outside the archive");
    record_ = bytes.substr(at, size);
  }
  template <typename T>
  T get(std::size_t offset) const {
    T value{};
    std::memcpy(&value, record_.data() + offset, sizeof value);
    return value;
  }
  bool signed_as(std::uint32_t signature) const { return get<std::uint32_t>(0) == signature; }

 private:
  std::string_view record_;
};

constexpr std::uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEnd = 0x06054b50,
                        kZip64End = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr std::size_t kEndSize = 22, kZip64EndSize = 56, kZip64LocatorSize = 20, kCentralSize = 46, kLocalSize = 30;

// Where the central directory starts and how many entries it has.
struct Directory {
  std::uint64_t offset = 0;
  std::uint64_t entries = 0;
};

Directory find_directory(std::string_view bytes) {
  if (bytes.size() < kEndSize) throw ZipError("zip: too short for an archive");
  // The end record is last but for a comment of at most 64 KiB.
  std::size_t at = bytes.size() - kEndSize;
  const std::size_t lowest = at > 0xffff ? at - 0xffff : 0;
  while (!Reader(bytes, at, kEndSize, "the end record").signed_as(kEnd)) {
    if (at == lowest) throw ZipError("zip: no end of central directory record");
    --at;
  }
  const Reader end(bytes, at, kEndSize, "the end record");
  Directory directory{end.get<std::uint32_t>(16), end.get<std::uint16_t>(10)};
  if (directory.offset != 0xffffffff && directory.entries != 0xffff) return directory;
  if (at < kZip64LocatorSize) throw ZipError("zip: no zip64 end record locator");
  const Reader locator(bytes, at - kZip64LocatorSize, kZip64LocatorSize, "the zip64 locator");
  if (!locator.signed_as(kZip64Locator)) throw ZipError("zip: no zip64 end record locator");
  const Reader end64(bytes, locator.get<std::uint64_t>(8), kZip64EndSize, "the zip64 end record");
  if (!end64.signed_as(kZip64End)) throw ZipError("zip: bad zip64 end record");
  return {end64.get<std::uint64_t>(48), end64.get<std::uint64_t>(32)};
}

}  // namespace

StoredZip::StoredZip(std::string_view bytes) {
  const Directory directory = find_directory(bytes);
  std::uint64_t at = directory.offset;
  for (std::uint64_t i = 0; i < directory.entries; ++i) {
    const Reader central(bytes, at, kCentralSize, "a central directory entry");
    if (!central.signed_as(kCentralHeader)) throw ZipError("zip: bad central directory entry");
    const auto name_size = central.get<std::uint16_t>(28), extra_size = central.get<std::uint16_t>(30),
               comment_size = central.get<std::uint16_t>(32);
    const std::uint64_t compressed = central.get<std::uint32_t>(20), offset = central.get<std::uint32_t>(42);
    if (compressed == 0xffffffff || offset == 0xffffffff)
      throw ZipError("zip: entries beyond 4 GiB (zip64 entries) are not read");
    if (at + kCentralSize + name_size > bytes.size()) throw ZipError("zip: an entry's name lies outside the archive");
    std::string name(bytes.substr(at + kCentralSize, name_size));
    const Reader local(bytes, offset, kLocalSize, "a local header");
    if (!local.signed_as(kLocalHeader)) throw ZipError("zip: bad local header of '" + name + "'");
    const std::uint64_t data_at = offset + kLocalSize + local.get<std::uint16_t>(26) + local.get<std::uint16_t>(28);
    if (data_at > bytes.size() || compressed > bytes.size() - data_at)
      throw ZipError("zip: the entry '" + name + "' lies outside the archive");
    entries_[std::move(name)] = {central.get<std::uint16_t>(10), bytes.substr(data_at, compressed)};
    at += kCentralSize + name_size + extra_size + comment_size;
  }
}

std::vector<std::string> StoredZip::names() const {
  std::vector<std::string> names;
  for (const auto& entry : entries_) names.push_back(entry.first);
  return names;
}

std::string_view StoredZip::stored(const std::string& name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) throw ZipError("zip: no entry '" + name + "'");
  if (it->second.method != 0) throw ZipError("zip: the entry '" + name + "' is compressed");
  return it->second.data;
}

}  // namespace ataxx
