#include "nn/network.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace ataxx {
namespace {

torch::nn::Conv2dOptions conv(int in, int out, int kernel) {
  return torch::nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(false);
}

}  // namespace

ResidualBlockImpl::ResidualBlockImpl(int channels)
    : conv1_(register_module("conv1", torch::nn::Conv2d(conv(channels, channels, 3)))),
      conv2_(register_module("conv2", torch::nn::Conv2d(conv(channels, channels, 3)))),
      bn1_(register_module("bn1", torch::nn::BatchNorm2d(channels))),
      bn2_(register_module("bn2", torch::nn::BatchNorm2d(channels))) {}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x, const torch::Tensor& mask) {
  auto y = conv1_(x);
  if (!folded_) y = bn1_(y);
  y = conv2_(torch::relu(y) * mask);
  if (!folded_) y = bn2_(y);
  return torch::relu(x + y) * mask;
}

void ResidualBlockImpl::fold_batch_norms() {
  if (std::exchange(folded_, true)) return;
  conv1_ = replace_module("conv1", fold_batch_norm(conv1_, bn1_));
  conv2_ = replace_module("conv2", fold_batch_norm(conv2_, bn2_));
}

torch::nn::Conv2d fold_batch_norm(const torch::nn::Conv2d& conv, const torch::nn::BatchNorm2d& norm) {
  torch::NoGradGuard no_grad;
  const auto& o = conv->options;
  const auto scale = norm->weight / torch::sqrt(norm->running_var + norm->options.eps());
  torch::nn::Conv2d folded(
      torch::nn::Conv2dOptions(o.in_channels(), o.out_channels(), o.kernel_size()).padding(o.padding()).bias(true));
  folded->weight.copy_(conv->weight * scale.view({-1, 1, 1, 1}));
  folded->bias.copy_(norm->bias - norm->running_mean * scale);
  return folded;
}

AtaxxNetImpl::AtaxxNetImpl(ModelShape shape, NetworkIo io) : shape_(shape), io_(io) {
  const int c = shape.channels;
  constexpr int kPooledFeatures = 3;  // see pool
  input_conv_ = register_module("input_conv", torch::nn::Conv2d(conv(io.input_planes, c, 3)));
  input_bn_ = register_module("input_bn", torch::nn::BatchNorm2d(c));
  tower_ = register_module("tower", torch::nn::ModuleList());
  for (int i = 0; i < shape.blocks; ++i) tower_->push_back(ResidualBlock(c));
  policy_conv_ = register_module("policy_conv", torch::nn::Conv2d(conv(c, kHeadChannels, 3)));
  policy_bn_ = register_module("policy_bn", torch::nn::BatchNorm2d(kHeadChannels));
  policy_out_ = register_module("policy_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(kHeadChannels, io.move_planes, 1)));
  pass_out_ = register_module("pass_out", torch::nn::Linear(c, 1));
  value_conv_ = register_module("value_conv", torch::nn::Conv2d(conv(c, kHeadChannels, 1)));
  value_bn_ = register_module("value_bn", torch::nn::BatchNorm2d(kHeadChannels));
  value_hidden_ = register_module("value_hidden", torch::nn::Linear(kPooledFeatures * kHeadChannels, 128));
  wdl_out_ = register_module("wdl_out", torch::nn::Linear(128, 3));
  piece_diff_out_ = register_module("piece_diff_out", torch::nn::Linear(128, 1));
  ownership_out_ = register_module("ownership_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(kHeadChannels, 1, 1)));
}

NetworkOutput AtaxxNetImpl::forward(const torch::Tensor& x) {
  const auto n = x.size(0);
  const auto mask = x.narrow(1, io_.mask_plane, 1);
  const auto cells = mask.sum({2, 3});  // [N, 1]
  auto trunk = torch::relu(conv_norm(input_conv_, input_bn_, x)) * mask;
  for (const auto& block : *tower_) trunk = block->as<ResidualBlockImpl>()->forward(trunk, mask);

  // [N, move planes, C, C] flattened plane-major, as the game's policy_index counts.
  auto policy_features = torch::relu(conv_norm(policy_conv_, policy_bn_, trunk));
  auto policy = policy_out_(policy_features).reshape({n, -1});
  auto pass = pass_out_(trunk.sum({2, 3}) / cells);

  auto value_planes = torch::relu(conv_norm(value_conv_, value_bn_, trunk)) * mask;
  auto hidden = torch::relu(value_hidden_(pool(value_planes, cells)));
  return {torch::cat({policy, pass}, 1), wdl_out_(hidden), torch::tanh(ownership_out_(value_planes).flatten(1)),
          torch::tanh(piece_diff_out_(hidden)).squeeze(1), policy_features};
}

torch::Tensor AtaxxNetImpl::pool(const torch::Tensor& planes, const torch::Tensor& cells) {
  // The mean over the board, the mean scaled by the board's width (about -1 on 4x4, +1 on 8x8),
  // and the maximum (planes are >= 0 after the ReLU and 0 off the board).
  const auto mean = planes.sum({2, 3}) / cells;
  const auto width_scale = (torch::sqrt(cells) - 6.0) / 2.0;
  return torch::cat({mean, mean * width_scale, planes.amax({2, 3})}, 1);
}

void AtaxxNetImpl::fold_batch_norms() {
  if (std::exchange(folded_, true)) return;
  input_conv_ = replace_module("input_conv", fold_batch_norm(input_conv_, input_bn_));
  policy_conv_ = replace_module("policy_conv", fold_batch_norm(policy_conv_, policy_bn_));
  value_conv_ = replace_module("value_conv", fold_batch_norm(value_conv_, value_bn_));
  for (const auto& block : *tower_) block->as<ResidualBlockImpl>()->fold_batch_norms();
}

AtaxxNet with_blocks(const AtaxxNet& source, int blocks) {
  ModelShape shape = source->shape();
  shape.blocks = blocks;
  AtaxxNet net(shape, source->io());
  torch::NoGradGuard no_grad;
  auto parameters = net->named_parameters(), buffers = net->named_buffers();
  // contains: a cut net has no entries for the source's last blocks
  for (const auto& p : source->named_parameters())
    if (parameters.contains(p.key())) parameters[p.key()].copy_(p.value());
  for (const auto& b : source->named_buffers())
    if (buffers.contains(b.key())) buffers[b.key()].copy_(b.value());
  for (int i = source->shape().blocks; i < blocks; ++i) {
    const std::string norm = "tower." + std::to_string(i) + ".bn2.";
    parameters[norm + "weight"].zero_();
    parameters[norm + "bias"].zero_();
  }
  return net;
}

torch::Tensor to_inference_input(const torch::Tensor& planes, torch::Device device, torch::ScalarType dtype) {
  // Copied as float32 and converted on the device: a copy that also converts the type converts on
  // the host, into pageable memory, and so is no longer asynchronous.
  return planes.to(device, /*non_blocking=*/device.is_cuda()).to(dtype).contiguous(at::MemoryFormat::ChannelsLast);
}

torch::Tensor encode_batch(const Encoding& encoding, std::span<const Position* const> positions) {
  const int c = encoding.canvas();
  auto planes = torch::empty({static_cast<long>(positions.size()), kInputPlanes, c, c});
  float* data = planes.data_ptr<float>();
  const std::size_t size = encoding.input_size();
  for (std::size_t i = 0; i < positions.size(); ++i) encoding.encode(*positions[i], {data + i * size, size});
  return planes;
}

}  // namespace ataxx
