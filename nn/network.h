// The policy/value network (LibTorch). Included only inside nn/ and trainer/.
#pragma once

#include <torch/torch.h>

#include "nn/encoding.h"
#include "nn/model_info.h"

namespace ataxx {

struct NetworkOutput {
  torch::Tensor policy_logits;  // [N, kPolicySize]
  torch::Tensor wdl_logits;     // [N, 3]: win, draw, loss for the side to move
  torch::Tensor ownership;      // [N, 49] in [-1, 1]: final owner of each square, side to move's view
  torch::Tensor piece_diff;     // [N]: final (own - opponent) pieces / 49
};

// A 3x3 convolution and its batch norm; for inference the norm can be folded into the
// convolution's weights and bias, which saves a pass over the activations.
class ConvNormImpl : public torch::nn::Module {
 public:
  ConvNormImpl(int in, int out, int kernel);
  torch::Tensor forward(const torch::Tensor& x) { return folded_ ? conv_(x) : norm_(conv_(x)); }
  void fold();  // eval mode only; the module can no longer be trained or saved

 private:
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::BatchNorm2d norm_{nullptr};
  bool folded_ = false;
};
TORCH_MODULE(ConvNorm);

class ResidualBlockImpl : public torch::nn::Module {
 public:
  explicit ResidualBlockImpl(int channels);
  torch::Tensor forward(const torch::Tensor& x);
  void fold() {
    first_->fold();
    second_->fold();
  }

 private:
  ConvNorm first_{nullptr}, second_{nullptr};
};
TORCH_MODULE(ResidualBlock);

class AtaxxNetImpl : public torch::nn::Module {
 public:
  explicit AtaxxNetImpl(ModelShape shape);
  // x: [N, kInputPlanes, 7, 7]
  NetworkOutput forward(const torch::Tensor& x);
  const ModelShape& shape() const { return shape_; }
  // Folds every batch norm into its convolution: same outputs, faster, inference only.
  void fold_batch_norms();

 private:
  ModelShape shape_;
  ConvNorm input_{nullptr};
  std::vector<ResidualBlock> blocks_;
  ConvNorm policy_conv_{nullptr};
  torch::nn::Conv2d policy_out_{nullptr};
  torch::nn::Linear pass_out_{nullptr};
  ConvNorm value_conv_{nullptr};
  torch::nn::Linear value_hidden_{nullptr}, wdl_out_{nullptr}, piece_diff_out_{nullptr};
  torch::nn::Conv2d ownership_out_{nullptr};
};
TORCH_MODULE(AtaxxNet);

// Encodes positions into one [N, kInputPlanes, 7, 7] float tensor on the CPU.
torch::Tensor encode_batch(std::span<const Position* const> positions);
// The batch as inference wants it: one copy to the device, in channels-last layout (oneDNN on
// the CPU and tensor cores on CUDA are faster with it; measured 1.3x on the 2-core CPU).
torch::Tensor to_inference_input(const torch::Tensor& planes, torch::Device device, torch::ScalarType dtype);

}  // namespace ataxx
