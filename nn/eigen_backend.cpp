// The backend without LibTorch (nn/network_backend.h): every network on the CPU, in plain C++.
#include <stdexcept>

#include "nn/eigen_network.h"
#include "nn/network_backend.h"

namespace ataxx {

void check_device(const std::string& device) {
  if (device == "cpu") return;
  const bool cuda = device == "cuda" || (device.starts_with("cuda:") && device.size() > 5 &&
                                         device.find_first_not_of("0123456789", 5) == std::string::npos);
  if (!cuda) throw std::invalid_argument(unknown_device(device));
  throw std::invalid_argument("inference: device=" + device +
                              " needs LibTorch, which this program (ataxx-engine) is built without: use ataxx-zero");
}

std::unique_ptr<LoadedNetwork> load_network(const std::string& play_file, const InferenceOptions& options,
                                            NetworkIoOf io_of) {
  check_device(options.device);
  if (options.cpu_path == CpuPath::kTorch)
    throw std::invalid_argument(
        "inference: LibTorch's CPU path needs LibTorch, which this program (ataxx-engine) is built without: use "
        "ataxx-zero");
  return EigenNetwork::load(play_file, options, io_of);
}

}  // namespace ataxx
