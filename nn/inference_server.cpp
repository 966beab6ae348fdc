#include "nn/inference_server.h"

#include <atomic>
#include <bit>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include "nn/cpu_network.h"
#include "nn/direct_convolution.h"
#include "nn/graphed_forward.h"
#include "nn/model_file.h"
#include "nn/torch_compat.h"
#include "util/clock.h"

namespace ataxx {
namespace {

struct LoadedNet {
  AtaxxNet net{nullptr};
  torch::Device device{torch::kCPU};
  torch::ScalarType dtype = torch::kFloat32;
  std::unique_ptr<const CpuNetwork> cpu;  // the CPU's forward pass, when it runs on the CPU in Eigen
  std::vector<std::unique_ptr<GraphedForward>> graphs;  // one per server thread, with CUDA graphs on
  ModelInfo info;
  std::uint64_t generation = 0;  // which network of the process's life: cache entries carry it

  // Whether this is server thread `thread`'s first pass of `rows` positions without a graph: it may
  // autotune cuDNN and make the thread's first cuBLAS calls, either of which breaks another thread's
  // graph capture (the ladder's players run eagerly beside self-play's graphs).
  bool first_eager_pass(int thread, int rows) {
    const std::lock_guard lock(eager_shapes_mutex);
    return eager_shapes.emplace(thread, rows).second;
  }
  std::mutex eager_shapes_mutex;
  std::set<std::pair<int, int>> eager_shapes;  // (server thread, rows) passes run
};

// The network's outputs for a batch, as one float32 tensor on the batch's device: the policy logits
// (rows x policy size), the win, draw, loss probabilities (rows x 3), then the piece leads (rows).
torch::Tensor flat_outputs(AtaxxNetImpl& net, const torch::Tensor& planes, torch::Device device,
                           torch::ScalarType dtype) {
  const NetworkOutput out = net.forward(to_inference_input(planes, device, dtype));
  return torch::cat({out.policy_logits.to(torch::kFloat32).reshape(-1),
                     torch::softmax(out.wdl_logits.to(torch::kFloat32), 1).reshape(-1),
                     out.piece_diff.to(torch::kFloat32).reshape(-1)});
}

FoldedParameters folded_parameters(AtaxxNetImpl& net) {
  FoldedParameters parameters;
  for (const auto& item : net.named_parameters()) {
    const torch::Tensor t = item.value().detach().to(torch::kCPU, torch::kFloat32).contiguous();
    parameters[item.key()] = {t.sizes().vec(), std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + t.numel())};
  }
  return parameters;
}

std::shared_ptr<LoadedNet> load_for(const std::string& path, const InferenceOptions& options) {
  static std::atomic<std::uint64_t> loads{0};
  const torch::Device device = torch_compat::parse_device(options.device);
  auto loaded = std::make_shared<LoadedNet>();
  loaded->generation = ++loads;
  loaded->device = device;
  loaded->dtype = options.bf16 && device.is_cuda() ? torch::kBFloat16 : torch::kFloat32;
  loaded->net = load_play_file(path, &loaded->info);
  loaded->net->fold_batch_norms();  // in fp32, before any conversion
  if (device.is_cpu() && options.cpu_path == CpuPath::kEigen)
    loaded->cpu = std::make_unique<CpuNetwork>(loaded->info.shape, loaded->info.io(), folded_parameters(*loaded->net),
                                               precision_of(options));
  loaded->net->to(device, loaded->dtype);
  if (device.is_cuda()) {
    // The inputs arrive channels-last: the weights in the same format spare a conversion per layer.
    torch::NoGradGuard no_grad;
    for (auto& p : loaded->net->parameters())
      if (p.dim() == 4) p.set_data(p.contiguous(at::MemoryFormat::ChannelsLast));
    at::globalContext().setBenchmarkCuDNN(true);  // the few batch sizes recur: autotune them once
    // The server threads run on streams of their own, which do not wait for this thread's.
    torch_compat::synchronize(device);
  }
  loaded->net->eval();
  if (options.cuda_graphs)
    for (int i = 0; i < options.threads; ++i)
      loaded->graphs.push_back(std::make_unique<GraphedForward>(
          device, [net = loaded->net.ptr(), device, dtype = loaded->dtype](const torch::Tensor& planes) {
            return flat_outputs(*net, planes, device, dtype);
          }));
  return loaded;
}

// The outputs of one batch on the host, kept alive while callers read them.
struct HostOutputs {
  torch::Tensor policy_logits;
  torch::Tensor wdl;
  torch::Tensor lead;
};

// Up to this batch the Eigen path with im2col is the faster on the CPU, above it LibTorch's (`bench
// nn`, 4x32 before the direct convolution, one thread: batch 1 7,471 vs 1,207 evals/s, 8 9,609 vs
// 7,280, 16 even, 128 6,968 vs 11,341). A net whose convolutions are all direct runs on the Eigen
// path at every batch, in parts of at most kEigenMaxBatch positions (the activations stay in cache).
constexpr int kEigenMaxBatch = 16;

// The Eigen path's forward pass, in parts of at most kEigenMaxBatch positions.
HostOutputs forward_on_cpu(const CpuNetwork& cpu, const NetworkIo& io, const float* inputs, int n) {
  HostOutputs out{torch::empty({n, io.policy_size()}), torch::empty({n, 3}), torch::empty({n})};
  float* policy = out.policy_logits.data_ptr<float>();
  float* wdl = out.wdl.data_ptr<float>();
  float* lead = out.lead.data_ptr<float>();
  for (std::size_t first = 0; first < static_cast<std::size_t>(n); first += kEigenMaxBatch)
    cpu.forward(inputs + first * io.input_size(), std::min<int>(kEigenMaxBatch, n - first), policy + first * io.policy_size(),
                wdl + 3 * first, lead + first);
  return out;
}

// A batch on a GPU is padded up to one of a few sizes (every size up to 8, then four to each power
// of two), so that cuDNN autotunes, and CUDA graphs capture, a handful of shapes once rather than
// one per batch size met (unpadded, self-play's ever-changing batch sizes kept the H100
// autotuning: 24k evals/s against 686k raw). At most a fifth of a padded batch is padding.
int padded_batch(int n) {
  const int step = std::max(1, static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))) / 8);
  return (n + step - 1) / step * step;
}

// The batch in pinned host memory (from LibTorch's caching host allocator, so reused batch after
// batch), padded with zeros to `rows`, so that its copy to the device is asynchronous.
torch::Tensor staged_on_pinned_memory(const float* inputs, int n, int rows, const NetworkIo& io) {
  const std::int64_t per_position = io.input_size();
  auto pinned = torch::empty({rows, io.input_planes, io.canvas, io.canvas}, torch::TensorOptions().pinned_memory(true));
  float* data = pinned.data_ptr<float>();
  std::memcpy(data, inputs, sizeof(float) * n * per_position);
  std::memset(data + n * per_position, 0, sizeof(float) * (rows - n) * per_position);
  return pinned;
}

// The first n of `rows` positions' flat outputs, in host memory. From a GPU: three asynchronous
// copies into pinned memory and one wait for the calling thread's stream.
HostOutputs host_outputs(const torch::Tensor& flat, int n, int rows, int policy_size) {
  const std::int64_t policy = std::int64_t{n} * policy_size, wdl = std::int64_t{n} * 3, lead = n;
  torch::Tensor host = flat;
  const std::int64_t wdl_at = policy, lead_at = policy + wdl;  // in host
  if (flat.is_cuda()) {
    host = torch::empty({policy + wdl + lead}, torch::TensorOptions().pinned_memory(true));
    const std::int64_t flat_wdl_at = std::int64_t{rows} * policy_size, flat_lead_at = flat_wdl_at + std::int64_t{rows} * 3;
    host.narrow(0, 0, policy).copy_(flat.narrow(0, 0, policy), /*non_blocking=*/true);
    host.narrow(0, wdl_at, wdl).copy_(flat.narrow(0, flat_wdl_at, wdl), /*non_blocking=*/true);
    host.narrow(0, lead_at, lead).copy_(flat.narrow(0, flat_lead_at, lead), /*non_blocking=*/true);
    c10::impl::VirtualGuardImpl(flat.device().type()).getStream(flat.device()).synchronize();
  }
  return {host.narrow(0, 0, policy).view({n, policy_size}), host.narrow(0, wdl_at, wdl).view({n, 3}),
          host.narrow(0, lead_at, lead)};
}

// One forward pass of encoded positions, on server thread `thread`: one copy in, the outputs back
// in one wait for the device.
HostOutputs forward(LoadedNet& loaded, const NetworkIo& io, const float* inputs, int n, int thread) {
  if (loaded.cpu && (n <= kEigenMaxBatch || loaded.cpu->convolves_directly()))
    return forward_on_cpu(*loaded.cpu, io, inputs, n);
  if (!loaded.device.is_cuda()) {
    const auto planes = torch::from_blob(const_cast<float*>(inputs), {n, io.input_planes, io.canvas, io.canvas});
    return host_outputs(flat_outputs(*loaded.net, planes, loaded.device, loaded.dtype), n, n, io.policy_size());
  }
  const int rows = padded_batch(n);
  const auto planes = staged_on_pinned_memory(inputs, n, rows, io);
  if (!loaded.graphs.empty()) return host_outputs(loaded.graphs.at(thread)->run(planes), n, rows, io.policy_size());
  std::unique_lock no_capture_meanwhile(torch_compat::capture_mutex(), std::defer_lock);
  if (loaded.first_eager_pass(thread, rows)) no_capture_meanwhile.lock();
  return host_outputs(flat_outputs(*loaded.net, planes, loaded.device, loaded.dtype), n, rows, io.policy_size());
}

const InferenceOptions& checked(const InferenceOptions& options) {
  const bool cuda = torch_compat::parse_device(options.device).is_cuda();
  if (options.bf16 && !cuda && !DirectConvolution::available(Precision::kBf16))
    throw std::invalid_argument("inference: bf16 needs a CUDA device or a processor with AVX512-BF16");
  if (options.int8 && (cuda || !DirectConvolution::available(Precision::kInt8)))
    throw std::invalid_argument("inference: int8 needs the CPU, with AVX2 or AVX512-VNNI");
  if (options.cuda_graphs && !cuda) throw std::invalid_argument("inference: cuda_graphs needs a CUDA device");
  if (options.threads == 0 && cuda)
    throw std::invalid_argument("inference: threads 0 (the callers run their batches) is for the CPU");
  return options;
}

}  // namespace

class NetworkDevice final : public BatchDevice {
 public:
  NetworkDevice(const std::string& play_file, const InferenceOptions& options)
      : options_(checked(options)),
        net_(load_for(play_file, options_)),
        game_(net_->info.game),
        boards_(net_->info.boards),
        io_(net_->info.io()),
        streams_(streams_for(net_->device, options.threads)) {}
  NetworkIo io() const override { return io_; }

  Output run(int thread, const float* inputs, int n) override {
    static thread_local bool configured = [] {
      torch_compat::use_one_intra_op_thread();
      return true;
    }();
    (void)configured;
    c10::InferenceMode inference_mode;
    c10::OptionalStreamGuard on_own_stream;
    if (!streams_.empty()) on_own_stream.reset_stream(streams_.at(thread));
    const std::shared_ptr<LoadedNet> net = current();
    auto host = std::make_shared<HostOutputs>(forward(*net, io_, inputs, n, thread));
    return {.policy_logits = host->policy_logits.data_ptr<float>(), .wdl = host->wdl.data_ptr<float>(),
            .lead = host->lead.data_ptr<float>(), .owner = host, .generation = net->generation};
  }
  std::uint64_t generation() const override { return current()->generation; }
  std::string model_name() const override { return current()->info.name; }

  void load(const std::string& play_file) {
    auto loaded = load_for(play_file, options_);
    if (loaded->info.game != game_ || loaded->info.boards.names() != boards_.names())
      throw std::invalid_argument("inference: " + play_file + " plays " + loaded->info.game + " on " +
                                  loaded->info.boards.names() + "; the network it would replace plays " + game_ +
                                  " on " + boards_.names());
    std::lock_guard lock(mutex_);
    net_ = std::move(loaded);
  }
  std::shared_ptr<LoadedNet> current() const {
    std::lock_guard lock(mutex_);
    return net_;
  }

 private:
  const InferenceOptions options_;
  mutable std::mutex mutex_;  // guards net_
  std::shared_ptr<LoadedNet> net_;
  const std::string game_;
  const BoardSet boards_;  // every network this device loads plays this game on these
  const NetworkIo io_;
  // On a GPU, a stream per server thread: one thread's copies overlap another's forward pass.
  const std::vector<c10::Stream> streams_;

  static std::vector<c10::Stream> streams_for(torch::Device device, int threads) {
    std::vector<c10::Stream> streams;
    if (!device.is_cuda()) return streams;
    for (int i = 0; i < threads; ++i) streams.push_back(*torch_compat::pool_stream(device));
    return streams;
  }
};

namespace {

BatchingOptions batching(const InferenceOptions& o) {
  return {o.max_batch, o.deadline_us, o.threads, o.cache_entries, o.random_symmetry, o.caller_lanes};
}

template <typename G>
std::shared_ptr<NetworkDevice> network_of_game(const std::string& play_file, const InferenceOptions& options) {
  auto network = std::make_shared<NetworkDevice>(play_file, options);
  const ModelInfo info = network->current()->info;
  if (info.game != G::kName)
    throw ModelFileError("model file '" + play_file + "' is a network of " + info.game + ", not of " +
                         std::string(G::kName));
  return network;
}

}  // namespace

template <typename G>
BasicInferenceServer<G>::BasicInferenceServer(const std::string& play_file, const InferenceOptions& options)
    : network_(network_of_game<G>(play_file, options)),
      batcher_(network_, GameEncoder<G>(network_->current()->info.boards), batching(options)) {}

template <typename G>
BasicInferenceServer<G>::~BasicInferenceServer() = default;

template <typename G>
void BasicInferenceServer<G>::evaluate(std::span<const BasicEvalRequest<G>> batch) {
  batcher_.evaluate(batch);
}
template <typename G>
void BasicInferenceServer<G>::load(const std::string& play_file) {
  network_->load(play_file);
}
template <typename G>
ModelInfo BasicInferenceServer<G>::info() const {
  return network_->current()->info;
}
template <typename G>
std::string BasicInferenceServer<G>::model_name() const {
  return network_->model_name();
}
template <typename G>
InferenceStats BasicInferenceServer<G>::stats() const {
  return batcher_.stats();
}

template class BasicInferenceServer<AtaxxGame>;
template class BasicInferenceServer<SchataxxGame>;

ModelInfo read_model_info(const std::string& play_file) {
  ModelInfo info;
  load_play_file(play_file, &info);
  return info;
}

void write_random_play_file(const std::string& path, const ModelShape& shape, std::uint64_t seed, const BoardSet& boards,
                            const RuleSettings& rules, std::string_view game) {
  torch::manual_seed(seed);
  AtaxxNet net(shape, network_io(game, boards));
  ModelInfo info;
  info.game = game;
  info.shape = shape;
  info.boards = boards;
  info.rules = rules;
  info.name = "random-init";
  save_play_file(path, net, info);
}

double measure_raw_forward(const std::string& play_file, const InferenceOptions& options, int batch_size,
                           double seconds) {
  torch_compat::use_one_intra_op_thread();
  c10::InferenceMode inference_mode;
  const torch::Device device = torch_compat::parse_device(checked(options).device);
  auto loaded = load_for(play_file, options);
  const NetworkIo io = loaded->info.io();
  const std::size_t size = io.input_size();
  std::vector<float> inputs(batch_size * size);
  for (int i = 0; i < batch_size; ++i) {
    const std::span<float> planes{inputs.data() + i * size, size};
    if (loaded->info.game == kSchataxxName)
      schataxx::encode(schataxx::Position::startpos(), planes);
    else
      loaded->info.boards.encoding().encode(Position::startpos(*loaded->info.boards.boards.front()), planes);
  }
  // As the server runs a batch, the inputs already encoded by the callers.
  auto run_once = [&] { forward(*loaded, io, inputs.data(), batch_size, /*thread=*/0); };
  for (int i = 0; i < 3; ++i) run_once();  // warm-up
  torch_compat::synchronize(device);
  const SteadyClock::time_point begin = SteadyClock::now();
  long long evaluated = 0;
  while (seconds_since(begin) < seconds) {
    run_once();
    evaluated += batch_size;
  }
  torch_compat::synchronize(device);
  return evaluated / seconds_since(begin);
}

}  // namespace ataxx
