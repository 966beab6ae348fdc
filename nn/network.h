// The policy/value network (LibTorch). Included only inside nn/ and trainer/.
#pragma once

#include <torch/torch.h>

#include "nn/model_info.h"

namespace ataxx {

// For inputs on a C x C canvas (see Encoding): every output is independent of the canvas around
// the board, so one network plays every board that fits.
struct NetworkOutput {
  torch::Tensor policy_logits;  // [N, Encoding(C).policy_size()]
  torch::Tensor wdl_logits;     // [N, 3]: win, draw, loss for the side to move
  torch::Tensor ownership;      // [N, C * C] in [-1, 1]: final owner of each cell, side to move's view
  torch::Tensor piece_diff;     // [N]: final (own - opponent) pieces / cells of the board
  torch::Tensor policy_features;  // [N, kHeadChannels, C, C]: the policy head's planes, for training's auxiliary heads
};

// For inference, each batch norm can be folded into the convolution before it: the convolution
// (under the same name) gets the scaled weights and a bias, and the norm is skipped. Same
// outputs, one pass less over the activations; the module can then no longer be trained or saved.
torch::nn::Conv2d fold_batch_norm(const torch::nn::Conv2d& conv, const torch::nn::BatchNorm2d& norm);

class ResidualBlockImpl : public torch::nn::Module {
 public:
  explicit ResidualBlockImpl(int channels);
  // mask: [N, 1, C, C], the board's cells; activations off the board stay zero.
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask);
  void fold_batch_norms();

 private:
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr};
  bool folded_ = false;
};
TORCH_MODULE(ResidualBlock);

class AtaxxNetImpl : public torch::nn::Module {
 public:
  // io: the game's planes (its Encoder's, nn/game_encoder.h).
  explicit AtaxxNetImpl(ModelShape shape, NetworkIo io = default_network_io());
  // x: [N, io.input_planes, C, C], any canvas C that holds the boards (see Encoding). The trunk is
  // masked to the board after every layer and the heads pool over the board's cells only
  // (KataGo's masked global pooling), so the board's size and shape reach the net through the mask.
  NetworkOutput forward(const torch::Tensor& x);
  const ModelShape& shape() const { return shape_; }
  const NetworkIo& io() const { return io_; }
  // Folds every batch norm into its convolution (see fold_batch_norm): inference only.
  void fold_batch_norms();

 private:
  // conv then norm, or the folded conv alone.
  torch::Tensor conv_norm(torch::nn::Conv2d& conv, torch::nn::BatchNorm2d& norm, const torch::Tensor& x) const {
    return folded_ ? conv(x) : norm(conv(x));
  }
  static torch::Tensor pool(const torch::Tensor& planes, const torch::Tensor& cells);
  ModelShape shape_;
  NetworkIo io_;
  torch::nn::Conv2d input_conv_{nullptr};
  torch::nn::BatchNorm2d input_bn_{nullptr};
  torch::nn::ModuleList tower_{nullptr};
  torch::nn::Conv2d policy_conv_{nullptr}, policy_out_{nullptr};
  torch::nn::BatchNorm2d policy_bn_{nullptr};
  torch::nn::Linear pass_out_{nullptr};
  torch::nn::Conv2d value_conv_{nullptr};
  torch::nn::BatchNorm2d value_bn_{nullptr};
  torch::nn::Linear value_hidden_{nullptr}, wdl_out_{nullptr}, piece_diff_out_{nullptr};
  torch::nn::Conv2d ownership_out_{nullptr};
  bool folded_ = false;
};
TORCH_MODULE(AtaxxNet);

// A network of `blocks` residual blocks with the source's weights in its input layer, its first
// blocks and its heads. Blocks added at the end of the tower are identities (their second batch
// norm scaled and shifted by zero, so each adds nothing to its input): the same outputs as the
// source, with room to learn more. With fewer blocks the source's last ones are left out: a cut
// net to start a smaller student from (docs/experiments.md, 2026-12-05).
AtaxxNet with_blocks(const AtaxxNet& source, int blocks);

// Encodes positions into one [N, kInputPlanes, C, C] float tensor on the CPU.
torch::Tensor encode_batch(const Encoding& encoding, std::span<const Position* const> positions);
// The batch as inference wants it: one copy to the device (asynchronous from pinned memory), in
// channels-last layout (oneDNN on the CPU and tensor cores on CUDA are faster with it; measured
// 1.3x on the 2-core CPU).
torch::Tensor to_inference_input(const torch::Tensor& planes, torch::Device device, torch::ScalarType dtype);

}  // namespace ataxx
