// Play files read without LibTorch (nn/play_file.h). The input is the archive inside the
// container, which the harness wraps, so that the checksum holds and every byte reaches the zip
// and pickle readers. Whatever it holds is a ModelFileError, or weights that the CPU network
// takes or refuses with std::invalid_argument: never a crash, a hang or a huge allocation.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

#include "fuzz/check.h"
#include "nn/cpu_network.h"
#include "nn/model_container.h"
#include "nn/play_file.h"

using namespace ataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/dev/shm/ataxx-fuzz-play-file-" + std::to_string(getpid());
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      << in_model_container(std::string_view(reinterpret_cast<const char*>(data), size));
  try {
    const PlayFileWeights weights = read_play_file_weights(path);
    FUZZ_CHECK(read_model_info(path).name == weights.info.name);
    try {
      const CpuNetwork network(weights.info.shape, weights.info.io, weights.parameters);
    } catch (const std::invalid_argument&) {
    }
  } catch (const ModelFileError&) {
  }
  return 0;
}
