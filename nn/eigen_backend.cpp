// The backend without LibTorch (nn/network_backend.h): every network on the CPU, in plain C++.
#include "nn/eigen_network.h"

namespace ataxx {

std::unique_ptr<LoadedNetwork> load_network(const std::string& play_file, const InferenceOptions& options) {
  return EigenNetwork::load(play_file, options);
}

}  // namespace ataxx
