// The backend without LibTorch (nn/network_backend.h): every network on the CPU, in plain C++.
#include <stdexcept>

#include "nn/eigen_network.h"

namespace ataxx {

std::unique_ptr<LoadedNetwork> load_network(const std::string& play_file, const InferenceOptions& options) {
  if (options.device != "cpu")
    throw std::invalid_argument("inference: device=" + options.device +
                                " needs LibTorch, which this program (ataxx-engine) is built without: use ataxx-zero");
  return EigenNetwork::load(play_file, options);
}

}  // namespace ataxx
