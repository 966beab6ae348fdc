#include "trainer/trainer_impl.h"

#include <algorithm>
#include <filesystem>
#include <future>
#include <optional>
#include <type_traits>

#include "nn/model_file.h"
#include "nn/torch_compat.h"
#include "trainer/batch.h"
#include "trainer/soft_policy.h"

namespace ataxx {
namespace {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const std::vector<torch::Tensor>& parameters,
                                                       const RunConfig::Training& t) {
  if (t.optimizer == "adamw")
    return std::make_unique<torch::optim::AdamW>(
        parameters, torch::optim::AdamWOptions(t.learning_rate).weight_decay(t.weight_decay));
  return std::make_unique<torch::optim::SGD>(
      parameters,
      torch::optim::SGDOptions(t.learning_rate).momentum(t.momentum).weight_decay(t.weight_decay).nesterov(true));
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) {
    if (auto* sgd = dynamic_cast<torch::optim::SGDOptions*>(&group.options())) sgd->lr(lr);
    if (auto* adamw = dynamic_cast<torch::optim::AdamWOptions*>(&group.options())) adamw->lr(lr);
  }
}

void pin_memory(TrainingBatch& b) {
  for (torch::Tensor* t : {&b.input, &b.policy_indices, &b.policy_targets, &b.wdl, &b.ownership, &b.board_mask,
                           &b.piece_diff, &b.final_board_known})
    *t = t->pin_memory();
}

// What a file's network must share with the run's.
struct Network {
  std::string_view game;
  ModelShape shape;
  const BoardSet& boards;
};
struct NetworkOfRun {
  Network network;
  bool has_boards = false;  // the run's game's: whether the boards are compared
  NetworkIoOf io_of;        // what reads the run's game's model files
};

// A file's network must have the run's game, shape and boards to resume it; to start it, the run's
// game and channels, any blocks (added ones start as identities, the file's last ones may be left
// out: see with_blocks) and boards among the run's (the network's outputs do not depend on the
// canvas, so a 7x7 net starts a run of every board); to teach it, the run's game, any shape, and
// every board of the run (its outputs on the run's canvas are those on its own). `what` names the
// file in the error.
enum class Fit { kResume, kStart, kTeach };
void check_fits_run(const std::string& what, const Network& file, const NetworkOfRun& run, Fit fit = Fit::kResume) {
  auto text = [](const ModelShape& s) { return std::to_string(s.blocks) + "x" + std::to_string(s.channels); };
  const auto& [game, shape, boards] = file;
  const auto& [run_game, run_shape, run_boards] = run.network;
  if (game != run_game)
    throw ModelFileError(what + " holds a network of " + std::string(game) + "; the run plays " + std::string(run_game));
  if (fit == Fit::kStart && shape.channels != run_shape.channels)
    throw ModelFileError(what + " holds a " + text(shape) + " network; the config asks for " + text(run_shape) +
                         " (a run starts from a net of its channels)");
  if (fit == Fit::kResume && (shape.blocks != run_shape.blocks || shape.channels != run_shape.channels))
    throw ModelFileError(what + " holds a " + text(shape) + " network; the config asks for " + text(run_shape));
  if (!run.has_boards) return;
  if (fit == Fit::kStart) {
    for (const Board* board : boards.boards)
      if (!run_boards.contains(*board))
        throw ModelFileError(what + " was trained on " + boards.names() + ", which the run's boards (" +
                             run_boards.names() + ") do not all include");
  } else if (fit == Fit::kTeach) {
    for (const Board* board : run_boards.boards)
      if (!boards.contains(*board))
        throw ModelFileError(what + " was trained on " + boards.names() + "; a teacher must play every board the run " +
                             "trains (" + run_boards.names() + "), and it does not play " + std::string(board->name));
  } else if (boards.names() != run_boards.names()) {
    throw ModelFileError(what + " was trained on " + boards.names() + "; the config names " + run_boards.names() +
                         " (a run keeps its boards: start a new run)");
  }
}

// The play file a config key names, read as one of the run's game (the key heads any error).
AtaxxNet load_play_file_of_key(const std::string& key, const std::string& path, ModelInfo& info, NetworkIoOf io_of) {
  try {
    return load_play_file(path, &info, io_of);
  } catch (const ModelFileError& e) {
    throw ModelFileError(key + ": " + e.what());
  }
}

// The header of a checkpoint of this run: its game, shape and boards must be the run's.
CheckpointInfo checked_checkpoint(const std::string& path, const NetworkOfRun& run) {
  const CheckpointInfo info = read_checkpoint_info(path, run.io_of);
  check_fits_run("checkpoint '" + path + "'", {info.game, info.shape, info.boards}, run);
  return info;
}

struct StepLosses {
  torch::Tensor total, policy, value, ownership, piece_diff, soft_policy;
};

// The cross-entropy of each row's targets at `indices` against the logits, averaged over rows.
torch::Tensor sparse_cross_entropy(const torch::Tensor& logits, const torch::Tensor& indices, const torch::Tensor& targets) {
  return -(targets * torch::log_softmax(logits.to(torch::kFloat), 1).gather(1, indices)).sum(1).mean();
}

// The cross entropy of logits against target distributions, row by row, averaged.
torch::Tensor cross_entropy(const torch::Tensor& logits, const torch::Tensor& targets) {
  return -(targets * torch::log_softmax(logits.to(torch::kFloat), 1)).sum(1).mean();
}

// The same against the distributions of other logits (a teacher's).
torch::Tensor cross_entropy_to_logits(const torch::Tensor& logits, const torch::Tensor& target_logits) {
  return cross_entropy(logits, torch::softmax(target_logits.to(torch::kFloat), 1));
}

// The batch's losses, in float32 whatever precision the forward ran in; soft_policy is the run's
// soft policy head, or empty; teacher the run's teacher, or empty.
StepLosses losses_of(AtaxxNet& net, SoftPolicyHead& soft_policy, AtaxxNet& teacher, const TrainingBatch& batch,
                     const torch::Device& device, const RunConfig::Training& t) {
  const auto input = batch.input.to(device, /*non_blocking=*/true);
  const NetworkOutput out = net->forward(input);
  StepLosses l;
  const auto policy_indices = batch.policy_indices.to(device, true);
  const auto policy_targets = batch.policy_targets.to(device, true);
  l.policy = sparse_cross_entropy(out.policy_logits, policy_indices, policy_targets);
  l.value = cross_entropy(out.wdl_logits, batch.wdl.to(device, true));
  if (teacher) {
    const NetworkOutput taught = [&] {
      const torch::NoGradGuard no_grad;
      return teacher->forward(input);
    }();
    const double share = t.teacher_share;
    l.policy = (1.0 - share) * l.policy + share * cross_entropy_to_logits(out.policy_logits, taught.policy_logits);
    l.value = (1.0 - share) * l.value + share * cross_entropy_to_logits(out.wdl_logits, taught.wdl_logits);
  }
  // Ownership and piece difference only where the game was played out (not resigned).
  const auto known = batch.final_board_known.to(device, true);
  const auto known_count = known.sum().clamp_min(1.0);
  const auto mask = batch.board_mask.to(device, true);
  const auto ownership = out.ownership.to(torch::kFloat);
  const auto ownership_error = ((ownership - batch.ownership.to(device, true)).square() * mask).sum(1) / mask.sum(1);
  l.ownership = (ownership_error * known).sum() / known_count;
  const auto piece_diff = out.piece_diff.to(torch::kFloat);
  l.piece_diff = ((piece_diff - batch.piece_diff.to(device, true)).square() * known).sum() / known_count;
  l.total = t.policy_weight * l.policy + t.value_weight * l.value + t.ownership_weight * l.ownership +
            t.piece_diff_weight * l.piece_diff;
  if (soft_policy) {
    const auto board = input.narrow(1, net->io().mask_plane, 1);
    l.soft_policy = sparse_cross_entropy(soft_policy->forward(out.policy_features, board), policy_indices,
                                         soft_policy_targets(policy_targets));
    l.total = l.total + t.soft_policy_weight * l.soft_policy;
  } else {
    l.soft_policy = torch::zeros({}, l.total.options());
  }
  return l;
}

}  // namespace


double scheduled_learning_rate(const RunConfig::Training& t, std::int64_t step, double run_share) {
  const double warmup = t.warmup_steps > 0 ? std::min(1.0, (step + 1.0) / t.warmup_steps) : 1.0;
  const double drop = t.lr_drop_at < 1 && run_share >= t.lr_drop_at ? t.lr_drop_factor : 1.0;
  return t.learning_rate * warmup * drop;
}

struct Trainer::Impl {
  RunConfig config;
  TrainedGame game;
  BoardSet boards;
  // The network the run's config asks for.
  NetworkOfRun network_of_run() const {
    return {{game.name, {config.network.blocks, config.network.channels}, boards}, game.has_boards, game.io_of};
  }
  std::string config_yaml;
  torch::Device device{torch::kCPU};
  AtaxxNet net{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  // The auxiliary soft policy head, where training.soft_policy_weight > 0, with its own optimizer:
  // the network's optimizer state stays that of the network alone, whichever runs have the head.
  SoftPolicyHead soft_policy{nullptr};
  std::unique_ptr<torch::optim::Optimizer> soft_policy_optimizer;
  AtaxxNet teacher{nullptr};  // training.teacher's network, in eval mode, or empty
  AuxiliaryHead auxiliary() { return {soft_policy ? soft_policy.get() : nullptr, soft_policy_optimizer.get()}; }
  void set_learning_rate(double lr) {
    ataxx::set_learning_rate(*optimizer, lr);
    if (soft_policy_optimizer) ataxx::set_learning_rate(*soft_policy_optimizer, lr);
  }
  std::int64_t step = 0;
  // On a GPU the trainer shares the device with self-play's inference, which keeps it busy: its
  // kernels go ahead of the inference batches', so that it trains as fast as the reuse cap allows.
  std::optional<c10::Stream> stream;
};

Trainer::Trainer(const RunConfig& config, const std::string& config_yaml, const std::string& checkpoint_path,
                 const TrainedGame& game)
    : impl_(std::make_unique<Impl>()) {
  impl_->config = config;
  impl_->game = game;
  impl_->boards = boards_of(config);
  impl_->config_yaml = config_yaml;
  impl_->device = torch_compat::parse_device(config.inference.device);
  torch::manual_seed(config.run.seed);
  ModelShape shape{config.network.blocks, config.network.channels};
  if (!checkpoint_path.empty()) impl_->step = checked_checkpoint(checkpoint_path, impl_->network_of_run()).step;
  const std::string& init_from = config.network.init_from;
  if (checkpoint_path.empty() && !init_from.empty()) {
    ModelInfo info;
    const AtaxxNet start = load_play_file_of_key("network.init_from", init_from, info, game.io_of);
    check_fits_run("network.init_from: play file '" + init_from + "'", {info.game, info.shape, info.boards},
                   impl_->network_of_run(), Fit::kStart);
    impl_->net = with_blocks(start, config.network.blocks);
  } else {
    impl_->net = AtaxxNet(shape, game.io);
  }
  impl_->net->to(impl_->device);
  if (const std::string& teacher = config.training.teacher; !teacher.empty()) {
    ModelInfo info;
    impl_->teacher = load_play_file_of_key("training.teacher", teacher, info, game.io_of);
    check_fits_run("training.teacher: play file '" + teacher + "'", {info.game, info.shape, info.boards},
                   impl_->network_of_run(), Fit::kTeach);
    impl_->teacher->to(impl_->device);
    impl_->teacher->eval();
  }
  impl_->optimizer = make_optimizer(impl_->net->parameters(), config.training);
  if (config.training.soft_policy_weight > 0) {
    impl_->soft_policy = SoftPolicyHead(kHeadChannels, impl_->net->io().move_planes);
    impl_->soft_policy->to(impl_->device);
    impl_->soft_policy_optimizer = make_optimizer(impl_->soft_policy->parameters(), config.training);
  }
  if (!checkpoint_path.empty())
    load_checkpoint(checkpoint_path, impl_->net, *impl_->optimizer, impl_->device, impl_->auxiliary());
  impl_->stream = torch_compat::pool_stream(impl_->device, /*high_priority=*/true);
  torch_compat::synchronize(impl_->device);  // the stream does not wait for the default stream's loads
}

Trainer::~Trainer() = default;

bool Trainer::resume_if_further(const std::string& checkpoint_path) {
  if (!std::filesystem::exists(checkpoint_path)) return false;
  const CheckpointInfo info = checked_checkpoint(checkpoint_path, impl_->network_of_run());
  if (info.step <= impl_->step) return false;
  const torch_compat::OnStream on_stream(impl_->stream);
  load_checkpoint(checkpoint_path, impl_->net, *impl_->optimizer, impl_->device, impl_->auxiliary());
  torch_compat::synchronize(impl_->device);
  impl_->step = info.step;
  return true;
}

std::int64_t Trainer::step() const { return impl_->step; }

Losses Trainer::train_batches(std::string_view game, int steps, double run_share, const BatchSampler& sample) {
  if (game != impl_->game.name)
    throw std::logic_error("a trainer of " + std::string(impl_->game.name) + " given samples of " + std::string(game));
  const auto& t = impl_->config.training;
  const auto& device = impl_->device;
  auto& net = impl_->net;
  const torch_compat::OnStream on_stream(impl_->stream);
  // The trainer's cuDNN autotuning, first cuBLAS and cuDNN calls and allocator releases must not
  // land inside an inference thread's CUDA-graph capture: the steps and captures take turns
  // (captures are rare: one per batch size and server thread).
  const torch_compat::NoCaptureMeanwhile no_capture_meanwhile(device);
  auto& soft_policy = impl_->soft_policy;
  net->train();
  if (soft_policy) soft_policy->train();
  torch_compat::use_one_intra_op_thread();
  // The next batch is assembled on another thread while this one trains.
  auto assemble = [&] {
    return std::async(std::launch::async, [&] {
      TrainingBatch batch = sample(t.batch_size, static_cast<float>(t.search_value_share));
      if (device.is_cuda()) pin_memory(batch);  // so that the copies to the device are asynchronous
      return batch;
    });
  };
  std::future<TrainingBatch> next;
  if (steps > 0) next = assemble();
  torch::Tensor sums = torch::zeros({6}, torch::TensorOptions().device(device));  // read back once, at the end
  for (int i = 0; i < steps; ++i) {
    impl_->set_learning_rate(scheduled_learning_rate(t, impl_->step, run_share));
    const TrainingBatch batch = next.get();
    if (i + 1 < steps) next = assemble();
    const StepLosses losses = [&] {
      const torch_compat::Bf16Autocast autocast(device, t.bf16);  // the forward only, not the backward
      return losses_of(net, soft_policy, impl_->teacher, batch, device, t);
    }();
    impl_->optimizer->zero_grad();
    if (soft_policy) impl_->soft_policy_optimizer->zero_grad();
    losses.total.backward();
    impl_->optimizer->step();
    if (soft_policy) impl_->soft_policy_optimizer->step();
    ++impl_->step;
    sums += torch::stack({losses.total, losses.policy, losses.value, losses.ownership, losses.piece_diff,
                          losses.soft_policy}).detach();
  }
  net->eval();
  if (soft_policy) soft_policy->eval();
  Losses mean;
  mean.steps = steps;
  if (steps > 0) {
    const auto host = (sums / steps).to(torch::kCPU, torch::kDouble);
    const double* v = host.data_ptr<double>();
    mean.total = v[0], mean.policy = v[1], mean.value = v[2], mean.ownership = v[3], mean.piece_diff = v[4];
    mean.soft_policy = v[5];
  }
  return mean;
}

#define ATAXX_INSTANTIATE(G) template Losses Trainer::train<G>(const BasicReplayBuffer<G>&, int, double, std::mt19937_64&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

void Trainer::save_checkpoint(const std::string& path) const {
  CheckpointInfo info;
  info.game = impl_->game.name;
  info.boards = impl_->boards;
  info.shape = impl_->net->shape();
  info.rules = impl_->config.rules;
  info.step = impl_->step;
  info.optimizer = impl_->config.training.optimizer;
  info.config_yaml = impl_->config_yaml;
  const torch_compat::OnStream on_stream(impl_->stream);  // after the steps that wrote the weights
  const torch_compat::NoCaptureMeanwhile no_capture_meanwhile(impl_->device);
  impl_->net->to(torch::kCPU);
  if (impl_->soft_policy) impl_->soft_policy->to(torch::kCPU);
  ataxx::save_checkpoint(path, impl_->net, *impl_->optimizer, info, impl_->auxiliary());
  impl_->net->to(impl_->device);
  if (impl_->soft_policy) impl_->soft_policy->to(impl_->device);
}

void Trainer::save_play_file(const std::string& path, const ModelInfo& info) const {
  ModelInfo with_step = info;
  with_step.game = impl_->game.name;
  with_step.boards = impl_->boards;
  with_step.shape = impl_->net->shape();
  with_step.step = impl_->step;
  with_step.rules = impl_->config.rules;
  const torch_compat::OnStream on_stream(impl_->stream);  // after the steps that wrote the weights
  const torch_compat::NoCaptureMeanwhile no_capture_meanwhile(impl_->device);
  impl_->net->to(torch::kCPU);
  ataxx::save_play_file(path, impl_->net, with_step);
  impl_->net->to(impl_->device);
}

}  // namespace ataxx
