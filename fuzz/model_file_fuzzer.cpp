// Model files: a play file or checkpoint that cannot be used is a ModelFileError, never another
// exception (an escaping one aborts, and libFuzzer keeps the input) and never a crash.
//
// LibTorch 1.13's unpickler crashes on some damaged archives (SEGV in
// torch::jit::Unpickler::readInstruction, found by this harness within 4,000 runs): model files
// carry a CRC-32 checked before LibTorch reads a byte, and play files, which users are handed, are
// read by the project's own reader whatever their checksum says.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

#include "nn/model_container.h"
#include "nn/model_file.h"

using namespace ataxx;

// LibTorch 1.13 builds a symbolized stack trace for every exception it throws (4 ms each): the
// harness has no use for them, and without them it runs a hundred times faster.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  c10::SetStackTraceFetcher([] { return std::string(); });
  return 0;
}

// Writes `bytes` to the harness's file.
const std::string& file_of(std::string_view bytes) {
  static const std::string path = "/dev/shm/ataxx-fuzz-model-" + std::to_string(getpid());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // A play file, whatever its archive holds, in a container whose checksum fits it (as a crafted
  // file's would, its checksum made again): it is read by nn/play_file's reader, never by
  // LibTorch's unpickler, so no archive may crash it. A seed's own container is taken off first.
  std::string archive(input);
  if (archive.starts_with("AXZM") && archive.size() >= 16) archive.erase(0, 16);
  try {
    ModelInfo info;
    load_play_file(file_of(in_model_container(archive)), &info);
  } catch (const ModelFileError&) {
  }
  // A checkpoint, the run's own, goes to LibTorch behind the checksum: the input as it is.
  try {
    read_checkpoint_info(file_of(input));
  } catch (const ModelFileError&) {
  }
  return 0;
}
