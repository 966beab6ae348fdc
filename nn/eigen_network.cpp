#include "nn/eigen_network.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "nn/play_file.h"

namespace ataxx {

void check_cpu_options(const InferenceOptions& options) {
  if (options.bf16 && !DirectConvolution::available(Precision::kBf16))
    throw std::invalid_argument("inference: bf16 needs a CUDA device or a processor with AVX512-BF16");
  if (options.int8 && !DirectConvolution::available(Precision::kInt8))
    throw std::invalid_argument("inference: int8 needs the CPU, with AVX2 or AVX512-VNNI");
  if (options.cuda_graphs) throw std::invalid_argument("inference: cuda_graphs needs a CUDA device");
}

std::unique_ptr<EigenNetwork> EigenNetwork::load(const std::string& play_file, const InferenceOptions& options,
                                                  NetworkIoOf io_of) {
  check_cpu_options(options);
  const PlayFileWeights weights = read_play_file_weights(play_file, io_of);
  try {
    return std::unique_ptr<EigenNetwork>(new EigenNetwork(weights.info, weights.parameters, precision_of(options)));
  } catch (const std::invalid_argument& e) {
    throw ModelFileError("model file '" + play_file + "': the weights do not fit the network (" + e.what() + ")");
  }
}

BatchDevice::Output EigenNetwork::forward(int /*thread*/, const float* inputs, int n) {
  const NetworkIo& io = this->io();
  const auto rows = static_cast<std::size_t>(n);
  // One buffer: the policy logits (rows x policy size), the win, draw, loss probabilities (rows x
  // 3), then the leads (rows), as LibTorch's backend lays its outputs out.
  auto out = std::make_shared<std::vector<float>>(rows * (io.policy_size() + 4));
  float* const policy = out->data();
  float* const wdl = policy + rows * io.policy_size();
  float* const lead = wdl + 3 * rows;
  for (int first = 0; first < n; first += kEigenMaxBatch)
    network_.forward(inputs + static_cast<std::size_t>(first) * io.input_size(), std::min(kEigenMaxBatch, n - first),
                     policy + static_cast<std::size_t>(first) * io.policy_size(), wdl + 3 * first, lead + first);
  return {.policy_logits = policy, .wdl = wdl, .lead = lead, .owner = out};
}

}  // namespace ataxx
