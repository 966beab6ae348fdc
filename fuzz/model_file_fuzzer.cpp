// Model files: a play file or checkpoint that cannot be used is a ModelFileError, never another
// exception (an escaping one aborts, and libFuzzer keeps the input) and never a crash.
#include <unistd.h>

#include <cstdint>
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
