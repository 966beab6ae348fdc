// What every model file is, below LibTorch: a container ("AXZM", the archive's size in 8 bytes and
// its CRC-32 in 4, then the archive) and the header fields a play file or checkpoint begins with
// (format, file version, game, boards, shape, rules, step), checked the same way whichever reader
// (LibTorch's in nn/model_file.h, or nn/play_file.h's without it) found them. Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "nn/model_info.h"

namespace ataxx {

inline constexpr std::string_view kPlayFormat = "ataxx-zero play file";
inline constexpr std::string_view kCheckpointFormat = "ataxx-zero checkpoint";
inline constexpr std::int64_t kModelFileVersion = 1;

// A model file's bytes; throws ModelFileError when it cannot be read. A run's `models/best`, which
// names its best model, reads as that model's play file.
std::string read_model_file(const std::string& path);
// `path`, or for a run's `models/best` the play file it names beside it.
std::string followed_best_pointer(const std::string& path);
// The archive inside a model file's bytes, its size and checksum checked (a bare archive of the
// first release only with ATAXX_LOAD_BARE_MODEL_FILES set); throws ModelFileError naming `path`.
std::string_view model_archive(std::string_view file, const std::string& path);
// An archive in the container, as model files are written.
std::string in_model_container(std::string_view archive);

// A model archive's top-level fields, as its reader finds them.
class ModelFields {
 public:
  enum class Type { kMissing, kInteger, kText, kOther };
  virtual ~ModelFields() = default;
  virtual Type type(const std::string& key) const = 0;
  virtual std::int64_t integer(const std::string& key) const = 0;  // where type(key) is kInteger
  virtual std::string text(const std::string& key) const = 0;      // where type(key) is kText
};

// Each throws ModelFileError naming `path` for a missing field, one of the wrong type or out of range.
// The format tag and file version: those of `format`.
void check_format(const ModelFields& fields, std::string_view format, const std::string& path);
// Everything a play file says about itself. The shape is checked against the file's size at `path`.
ModelInfo read_play_header(const ModelFields& fields, const std::string& path, NetworkIoOf io_of);
CheckpointInfo read_checkpoint_header(const ModelFields& fields, const std::string& path, NetworkIoOf io_of);

}  // namespace ataxx
