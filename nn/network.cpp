#include "nn/network.h"

namespace ataxx {
namespace {

torch::nn::Conv2dOptions conv(int in, int out, int kernel) {
  return torch::nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(false);
}

}  // namespace

ConvNormImpl::ConvNormImpl(int in, int out, int kernel)
    : conv_(register_module("conv", torch::nn::Conv2d(conv(in, out, kernel)))),
      norm_(register_module("norm", torch::nn::BatchNorm2d(out))) {}

void ConvNormImpl::fold() {
  if (folded_) return;
  torch::NoGradGuard no_grad;
  const auto& o = conv_->options;
  const auto scale = norm_->weight / torch::sqrt(norm_->running_var + norm_->options.eps());
  torch::nn::Conv2d fused(torch::nn::Conv2dOptions(o.in_channels(), o.out_channels(), o.kernel_size())
                              .padding(o.padding()).bias(true));
  fused->weight.copy_(conv_->weight * scale.view({-1, 1, 1, 1}));
  fused->bias.copy_(norm_->bias - norm_->running_mean * scale);
  conv_ = replace_module("conv", fused);
  folded_ = true;
}

ResidualBlockImpl::ResidualBlockImpl(int channels)
    : first_(register_module("first", ConvNorm(channels, channels, 3))),
      second_(register_module("second", ConvNorm(channels, channels, 3))) {}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
  return torch::relu(x + second_(torch::relu(first_(x))));
}

AtaxxNetImpl::AtaxxNetImpl(ModelShape shape) : shape_(shape) {
  const int c = shape.channels;
  constexpr int kHeadChannels = 32;
  input_ = register_module("input", ConvNorm(kInputPlanes, c, 3));
  for (int i = 0; i < shape.blocks; ++i)
    blocks_.push_back(register_module("block" + std::to_string(i), ResidualBlock(c)));
  policy_conv_ = register_module("policy_conv", ConvNorm(c, kHeadChannels, 3));
  policy_out_ = register_module("policy_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(kHeadChannels, kMovesPerSquare, 1)));
  pass_out_ = register_module("pass_out", torch::nn::Linear(c, 1));
  value_conv_ = register_module("value_conv", ConvNorm(c, kHeadChannels, 1));
  value_hidden_ = register_module("value_hidden", torch::nn::Linear(kHeadChannels * kNumSquares, 128));
  wdl_out_ = register_module("wdl_out", torch::nn::Linear(128, 3));
  piece_diff_out_ = register_module("piece_diff_out", torch::nn::Linear(128, 1));
  ownership_out_ = register_module("ownership_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(kHeadChannels, 1, 1)));
}

NetworkOutput AtaxxNetImpl::forward(const torch::Tensor& x) {
  const auto n = x.size(0);
  auto trunk = torch::relu(input_(x));
  for (auto& block : blocks_) trunk = block(trunk);

  // [N, 17, 7, 7] -> [N, 7, 7, 17] -> destination-major logits, index = square * 17 + kind.
  auto policy = policy_out_(torch::relu(policy_conv_(trunk)));
  policy = policy.permute({0, 2, 3, 1}).reshape({n, kNumSquares * kMovesPerSquare});
  auto pass = pass_out_(trunk.mean({2, 3}));

  auto value_planes = torch::relu(value_conv_(trunk));
  auto hidden = torch::relu(value_hidden_(value_planes.flatten(1)));
  return {torch::cat({policy, pass}, 1), wdl_out_(hidden), torch::tanh(ownership_out_(value_planes).flatten(1)),
          torch::tanh(piece_diff_out_(hidden)).squeeze(1)};
}

void AtaxxNetImpl::fold_batch_norms() {
  input_->fold();
  for (auto& block : blocks_) block->fold();
  policy_conv_->fold();
  value_conv_->fold();
}

torch::Tensor to_inference_input(const torch::Tensor& planes, torch::Device device, torch::ScalarType dtype) {
  return planes.to(device, dtype).contiguous(at::MemoryFormat::ChannelsLast);
}

torch::Tensor encode_batch(std::span<const Position* const> positions) {
  auto planes = torch::empty({static_cast<long>(positions.size()), kInputPlanes, kBoardSize, kBoardSize});
  float* data = planes.data_ptr<float>();
  for (std::size_t i = 0; i < positions.size(); ++i)
    encode_position(*positions[i], std::span<float, kInputSize>(data + i * kInputSize, kInputSize));
  return planes;
}

}  // namespace ataxx
