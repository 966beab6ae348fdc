// KataGo's auxiliary soft policy: a second policy output trained toward the visit shares raised
// to the power 1/4 and renormalised, so that the moves the search barely visited still teach the
// trunk. Only training has it: play files do not hold it, and a checkpoint without it starts a
// fresh one. Included only inside trainer/ (and its tests): torch.
#pragma once

#include <torch/torch.h>

namespace ataxx {

class SoftPolicyHeadImpl : public torch::nn::Module {
 public:
  // head_channels: the network's policy features (NetworkOutput::policy_features); move_planes
  // and the pass as the network's own policy counts them.
  SoftPolicyHeadImpl(int head_channels, int move_planes);
  // features: [N, head_channels, C, C]; mask: [N, 1, C, C], the board's cells. Returns the
  // logits, [N, move_planes x C x C + 1], the pass last.
  torch::Tensor forward(const torch::Tensor& features, const torch::Tensor& mask);

 private:
  torch::nn::Conv2d moves_{nullptr};
  torch::nn::Linear pass_{nullptr};
};
TORCH_MODULE(SoftPolicyHead);

// shares: [N, K], each row's visit shares (0 for padding). Each row raised to 1/temperature and
// summing to 1 again (a row of zeros stays zero).
torch::Tensor soft_policy_targets(const torch::Tensor& shares, double temperature = 4.0);

}  // namespace ataxx
