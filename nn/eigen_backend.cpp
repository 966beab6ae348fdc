// The backend without LibTorch (nn/network_backend.h): every network on the CPU, in plain C++.
#include <stdexcept>

#include "nn/eigen_network.h"

namespace ataxx {

std::unique_ptr<LoadedNetwork> load_network(const std::string& play_file, const InferenceOptions& options,
                                            NetworkIoOf io_of) {
  if (options.device != "cpu" || options.cpu_path == CpuPath::kTorch)
    throw std::invalid_argument(
        "inference: " + (options.device != "cpu" ? "device=" + options.device : std::string("LibTorch's CPU path")) +
        " needs LibTorch, which this program (ataxx-engine) is built without: use ataxx-zero");
  return EigenNetwork::load(play_file, options, io_of);
}

}  // namespace ataxx
