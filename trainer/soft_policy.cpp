#include "trainer/soft_policy.h"

namespace ataxx {

SoftPolicyHeadImpl::SoftPolicyHeadImpl(int head_channels, int move_planes)
    : moves_(register_module("moves", torch::nn::Conv2d(torch::nn::Conv2dOptions(head_channels, move_planes, 1)))),
      pass_(register_module("pass_out", torch::nn::Linear(head_channels, 1))) {}

torch::Tensor SoftPolicyHeadImpl::forward(const torch::Tensor& features, const torch::Tensor& mask) {
  const auto cells = mask.sum({2, 3});  // [N, 1]
  const auto pass = pass_((features * mask).sum({2, 3}) / cells);
  return torch::cat({moves_(features).flatten(1), pass}, 1);
}

torch::Tensor soft_policy_targets(const torch::Tensor& shares, double temperature) {
  const auto raised = shares.pow(1.0 / temperature);
  return raised / raised.sum(1, /*keepdim=*/true).clamp_min(1e-12);
}

}  // namespace ataxx
