// Model files: a play file or checkpoint that cannot be used is a ModelFileError, never another
// exception (an escaping one aborts, and libFuzzer keeps the input) and never a crash.
//
// Bare LibTorch archives (files of the first release, "PK\3\4") are left out: they load without a
// checksum for compatibility, and LibTorch 1.13's unpickler crashes on some damaged ones (SEGV in
// torch::jit::Unpickler::readInstruction, found by this harness within 4,000 runs). That is why
// model files now carry a CRC-32 that is checked before LibTorch reads a byte.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "nn/model_file.h"

using namespace ataxx;

// LibTorch 1.13 builds a symbolized stack trace for every exception it throws (4 ms each): the
// harness has no use for them, and without them it runs a hundred times faster.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  c10::SetStackTraceFetcher([] { return std::string(); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size >= 4 && std::memcmp(data, "PK\3\4", 4) == 0) return 0;
  static const std::string path = "/dev/shm/ataxx-fuzz-model-" + std::to_string(getpid());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    ModelInfo info;
    load_play_file(path, &info);
  } catch (const ModelFileError&) {
  }
  try {
    read_checkpoint_info(path);
  } catch (const ModelFileError&) {
  }
  return 0;
}
