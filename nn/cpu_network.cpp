#include "nn/cpu_network.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "nn/direct_convolution.h"

namespace ataxx {
namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::RowVectorXf;

constexpr int kValueHidden = 128;

// A convolution (weights as im2col expects them: [kernel * kernel * in, out]) or a linear layer
// ([in, out]), with its bias.
struct Layer {
  int kernel = 1;
  Matrix weight;
  RowVector bias;
  std::optional<DirectConvolution> direct;  // to 32 or 64 outputs, any past `weight`'s zero
  int outputs() const { return direct ? direct->outputs() : static_cast<int>(weight.cols()); }
};

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// `shape` by value: GCC 13 takes a reference to a temporary for one the result could dangle from.
const HostTensor& find(const FoldedParameters& parameters, const std::string& name,
                       const std::vector<std::int64_t> shape) {
  const auto it = parameters.find(name);
  if (it == parameters.end()) throw std::invalid_argument("cpu network: no parameter " + name);
  if (it->second.shape != shape)
    throw std::invalid_argument("cpu network: " + name + " is " + shape_text(it->second.shape) + ", expected " +
                                shape_text(shape));
  return it->second;
}

// LibTorch's conv weight [out, in, k, k] (or linear [out, in] for kernel 0) as a Layer. A 3x3 or 1x1
// convolution to 32 or 64 channels is computed directly; so is one to fewer where `padded` allows
// its outputs to be padded to 32 (the policy head's, read by index, not passed to another layer).
// The heads' 1x1 convolutions stay in float: direct, they cost little in any precision (Eigen's
// GEMM had spent a tenth of the forward on them), and in int8 the search played 94-106 at equal
// nodes against them in float.
Layer make_layer(const FoldedParameters& parameters, const std::string& name, int in, int out, int kernel,
                 Precision precision = Precision::kFloat, bool padded = false) {
  const bool linear = kernel == 0;
  const int k = linear ? 1 : kernel;
  const HostTensor& w = find(parameters, name + ".weight",
                             linear ? std::vector<std::int64_t>{out, in} : std::vector<std::int64_t>{out, in, k, k});
  const HostTensor& b = find(parameters, name + ".bias", {out});
  Layer layer;
  layer.kernel = k;
  layer.weight.resize(k * k * in, out);
  for (int o = 0; o < out; ++o)
    for (int i = 0; i < in; ++i)
      for (int tap = 0; tap < k * k; ++tap) layer.weight(tap * in + i, o) = w.values[(o * in + i) * k * k + tap];
  layer.bias = Eigen::Map<const RowVector>(b.values.data(), out);
  const int direct_outputs = padded && out < 32 ? 32 : out;
  if (!linear && DirectConvolution::supports(direct_outputs)) {
    // As a 3x3 convolution: a 1x1 one's weights at the centre tap, the other taps zero.
    Matrix taps = Matrix::Zero(9 * in, direct_outputs);
    taps.block(k == 1 ? 4 * in : 0, 0, k * k * in, out) = layer.weight;
    RowVector bias = RowVector::Zero(direct_outputs);
    bias.head(out) = layer.bias;
    layer.direct.emplace(taps.data(), bias.data(), in, direct_outputs, precision);
  }
  return layer;
}

// Each scratch matrix keeps its capacity between calls on a thread.
struct Scratch {
  Matrix input, columns, product, trunk, hidden, policy, value, pooled, head, wdl_logits;
  RowVector trunk_mean, value_mean;
  Eigen::VectorXf mask;
};

}  // namespace

struct CpuNetwork::Impl {
  NetworkIo io;
  Layer input;
  std::vector<Layer> tower;  // two per block
  Layer policy_conv, policy_out, pass_out, value_conv, value_hidden, wdl_out, lead_out, ownership_out;

  // For each cell and 3x3 tap (row-major, dy then dx), the cell it reads, or -1 off the canvas:
  // what im2col and the direct convolutions read.
  std::span<const int> neighbours;
  std::span<const int> centre;  // the same for 1x1 convolutions: the centre tap alone

  // rows [positions x cells] of `in` -> the same rows of `layer` applied with padding, the canvas
  // edge as zeros, then the epilogue; `out` may be its residual. largest_input as
  // DirectConvolution::run takes it. Returns the largest output.
  float convolve(const Layer& layer, const Matrix& in, int n, Scratch& s, Matrix& out,
                 const ConvolutionEpilogue& epilogue = {}, float largest_input = -1.0f) const {
    const Eigen::Index rows = static_cast<Eigen::Index>(n) * io.area();
    out.resize(rows, layer.outputs());  // keeps a residual in `out`: the same size
    if (layer.direct)
      return layer.direct->run(in.data(), static_cast<int>(rows), io.area(), layer.kernel == 1 ? centre : neighbours,
                               out.data(), epilogue, largest_input);
    if (layer.kernel == 1) {
      s.product.noalias() = in * layer.weight;
    } else {
      im2col(in, n, s.columns);
      s.product.noalias() = s.columns * layer.weight;
    }
    s.product.rowwise() += layer.bias;
    if (epilogue.residual) s.product += Eigen::Map<const Matrix>(epilogue.residual, out.rows(), out.cols());
    if (epilogue.relu) s.product = s.product.cwiseMax(0.0f);
    if (epilogue.mask) s.product.array().colwise() *= Eigen::Map<const Eigen::ArrayXf>(epilogue.mask, rows);
    out.swap(s.product);  // both scratch: the old `out` is not read again
    return out.size() ? out.maxCoeff() : 0.0f;
  }

  void im2col(const Matrix& in, int n, Matrix& columns) const {
    const int area = io.area(), rows = n * area, channels = static_cast<int>(in.cols());
    columns.resize(rows, 9 * channels);
    const std::size_t bytes = sizeof(float) * channels;
    for (int row = 0; row < rows; ++row) {
      const int cell = row % area;
      float* out = columns.row(row).data();
      for (int tap = 0; tap < 9; ++tap, out += channels) {
        const int read = neighbours[cell * 9 + tap];
        if (read < 0)
          std::memset(out, 0, bytes);
        else
          std::memcpy(out, in.row(row - cell + read).data(), bytes);
      }
    }
  }

  // The tower: s.trunk, each position's cells its rows, and s.mask; returns the largest activation.
  float trunk(const float* inputs, int n, Scratch& s) const {
    const int area = io.area(), planes = io.input_planes;
    // Planes [n, planes, cells] -> rows [n x cells, planes].
    s.input.resize(static_cast<Eigen::Index>(n) * area, planes);
    for (int p = 0; p < n; ++p)
      for (int plane = 0; plane < planes; ++plane)
        for (int cell = 0; cell < area; ++cell)
          s.input(p * area + cell, plane) = inputs[(p * planes + plane) * area + cell];
    s.mask = s.input.col(io.mask_plane);

    // Each activation through a ReLU, and the board's gaps zeroed, as each convolution stores it.
    const ConvolutionEpilogue masked{.mask = s.mask.data(), .relu = true};
    float largest = convolve(input, s.input, n, s, s.trunk, masked);
    for (std::size_t i = 0; i < tower.size(); i += 2) {
      const float largest_hidden = convolve(tower[i], s.trunk, n, s, s.hidden, masked, largest);
      largest = convolve(tower[i + 1], s.hidden, n, s, s.trunk, {s.trunk.data(), s.mask.data(), true}, largest_hidden);
    }
    return largest;
  }

  void forward(const float* inputs, int n, float* policy_logits, float* wdl, float* lead, Scratch& s) const {
    const int area = io.area(), policy_size = io.policy_size();
    const float largest = trunk(inputs, n, s);
    const ConvolutionEpilogue masked{.mask = s.mask.data(), .relu = true};
    const float largest_policy = convolve(policy_conv, s.trunk, n, s, s.hidden, {.relu = true}, largest);
    convolve(policy_out, s.hidden, n, s, s.policy, {}, largest_policy);  // [n x cells, move types, padding]
    convolve(value_conv, s.trunk, n, s, s.value, masked, largest);

    s.pooled.resize(n, 3 * kHeadChannels);
    for (int p = 0; p < n; ++p) {
      float* logits = policy_logits + static_cast<std::size_t>(p) * policy_size;
      for (int type = 0; type < io.move_planes; ++type)
        for (int cell = 0; cell < area; ++cell) logits[type * area + cell] = s.policy(p * area + cell, type);
      const float cells = s.mask.segment(p * area, area).sum();
      s.trunk_mean.noalias() = s.trunk.middleRows(p * area, area).colwise().sum() / cells;
      logits[io.pass_index()] = s.trunk_mean.dot(pass_out.weight.col(0)) + pass_out.bias(0);
      // As AtaxxNet::pool: the mean, the mean scaled by the board's width, the maximum.
      s.value_mean.noalias() = s.value.middleRows(p * area, area).colwise().sum() / cells;
      s.pooled.row(p) << s.value_mean, s.value_mean * ((std::sqrt(cells) - 6.0f) / 2.0f),
          s.value.middleRows(p * area, area).colwise().maxCoeff();
    }
    s.head.noalias() = s.pooled * value_hidden.weight;
    s.head.rowwise() += value_hidden.bias;
    s.head = s.head.cwiseMax(0.0f);
    s.wdl_logits.noalias() = s.head * wdl_out.weight;
    s.wdl_logits.rowwise() += wdl_out.bias;
    for (int p = 0; p < n; ++p) {
      const Eigen::Array3f e = (s.wdl_logits.row(p).array() - s.wdl_logits.row(p).maxCoeff()).exp().transpose();
      Eigen::Map<Eigen::Array3f>(wdl + 3 * p) = e / e.sum();
      lead[p] = std::tanh(s.head.row(p).dot(lead_out.weight.col(0)) + lead_out.bias(0));
    }
  }

  void ownership(const float* inputs, int n, float* out, Scratch& s) const {
    const float largest = trunk(inputs, n, s);
    convolve(value_conv, s.trunk, n, s, s.value, {.mask = s.mask.data(), .relu = true}, largest);
    convolve(ownership_out, s.value, n, s, s.head);  // [n x cells, 1]
    for (Eigen::Index row = 0; row < s.head.rows(); ++row) out[row] = std::tanh(s.head(row, 0));
  }
};

CpuNetwork::CpuNetwork(const ModelShape& shape, const NetworkIo& io, const FoldedParameters& parameters,
                       Precision precision)
    : impl_(std::make_unique<Impl>(Impl{io, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}})) {
  const int c = shape.channels;
  Impl& m = *impl_;
  m.input = make_layer(parameters, "input_conv", io.input_planes, c, 3, precision);
  for (int b = 0; b < shape.blocks; ++b) {
    const std::string block = "tower." + std::to_string(b) + ".";
    m.tower.push_back(make_layer(parameters, block + "conv1", c, c, 3, precision));
    m.tower.push_back(make_layer(parameters, block + "conv2", c, c, 3, precision));
  }
  m.policy_conv = make_layer(parameters, "policy_conv", c, kHeadChannels, 3, precision);
  m.policy_out =
      make_layer(parameters, "policy_out", kHeadChannels, io.move_planes, 1, Precision::kFloat, /*padded=*/true);
  m.pass_out = make_layer(parameters, "pass_out", c, 1, 0);
  m.value_conv = make_layer(parameters, "value_conv", c, kHeadChannels, 1, Precision::kFloat);
  m.value_hidden = make_layer(parameters, "value_hidden", 3 * kHeadChannels, kValueHidden, 0);
  m.wdl_out = make_layer(parameters, "wdl_out", kValueHidden, 3, 0);
  m.lead_out = make_layer(parameters, "piece_diff_out", kValueHidden, 1, 0);
  m.ownership_out = make_layer(parameters, "ownership_out", kHeadChannels, 1, 1, Precision::kFloat);
  m.neighbours = DirectConvolution::neighbour_table(io.canvas);
  m.centre = DirectConvolution::centre_table(io.canvas);
}

CpuNetwork::~CpuNetwork() = default;

bool CpuNetwork::convolves_directly() const {
  const Impl& m = *impl_;
  const auto direct = [](const Layer& layer) { return layer.direct.has_value(); };
  return direct(m.input) && direct(m.policy_conv) && std::all_of(m.tower.begin(), m.tower.end(), direct);
}

void CpuNetwork::forward(const float* inputs, int n, float* policy_logits, float* wdl, float* lead) const {
  thread_local Scratch scratch;
  impl_->forward(inputs, n, policy_logits, wdl, lead, scratch);
}

void CpuNetwork::ownership(const float* inputs, int n, float* out) const {
  thread_local Scratch scratch;
  impl_->ownership(inputs, n, out, scratch);
}

}  // namespace ataxx
