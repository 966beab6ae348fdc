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

class ResidualBlockImpl : public torch::nn::Module {
 public:
  explicit ResidualBlockImpl(int channels);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr};
};
TORCH_MODULE(ResidualBlock);

class AtaxxNetImpl : public torch::nn::Module {
 public:
  explicit AtaxxNetImpl(ModelShape shape);
  // x: [N, kInputPlanes, 7, 7]
  NetworkOutput forward(const torch::Tensor& x);
  const ModelShape& shape() const { return shape_; }

 private:
  ModelShape shape_;
  torch::nn::Conv2d input_conv_{nullptr};
  torch::nn::BatchNorm2d input_bn_{nullptr};
  torch::nn::Sequential tower_{nullptr};
  torch::nn::Conv2d policy_conv_{nullptr}, policy_out_{nullptr};
  torch::nn::BatchNorm2d policy_bn_{nullptr};
  torch::nn::Linear pass_out_{nullptr};
  torch::nn::Conv2d value_conv_{nullptr};
  torch::nn::BatchNorm2d value_bn_{nullptr};
  torch::nn::Linear value_hidden_{nullptr}, wdl_out_{nullptr}, piece_diff_out_{nullptr};
  torch::nn::Conv2d ownership_out_{nullptr};
};
TORCH_MODULE(AtaxxNet);

// Encodes positions into one [N, kInputPlanes, 7, 7] float tensor on the CPU.
torch::Tensor encode_batch(std::span<const Position* const> positions);

}  // namespace ataxx
