// Model files. A checkpoint resumes training (weights, optimizer state, step, config); a play
// file is everything needed to play (weights, shape, encoding version, rules, metadata).
// Both are LibTorch archives with a format tag and a version, in a container that carries the
// archive's size and CRC-32; a wrong, foreign, truncated or damaged file gets a ModelFileError
// naming the path. Included only inside nn/ and trainer/.
#pragma once

#include <stdexcept>
#include <string>

#include "nn/model_info.h"
#include "nn/network.h"

namespace ataxx {

// Writes an archive in the model-file container, atomically (save_* use it; so can tests).
void write_model_archive(torch::serialize::OutputArchive& archive, const std::string& path);

void save_play_file(const std::string& path, AtaxxNet& net, const ModelInfo& info);
// Returns a network in eval mode on the CPU.
AtaxxNet load_play_file(const std::string& path, ModelInfo* info = nullptr, NetworkIoOf io_of = registered_network_io);

// Training state that a checkpoint holds beside the network where the run has it, and play files
// never do: an auxiliary head (the soft policy) with its own optimizer. Empty: none.
struct AuxiliaryHead {
  torch::nn::Module* module = nullptr;
  torch::optim::Optimizer* optimizer = nullptr;
};

void save_checkpoint(const std::string& path, AtaxxNet& net, torch::optim::Optimizer& optimizer,
                     const CheckpointInfo& info, AuxiliaryHead soft_policy = {});
// Loads weights and optimizer state into objects built for read_checkpoint_info(path).shape and
// living on `device`, wherever the checkpoint was saved: a GPU run resumes on the CPU and the
// other way round. The soft policy head too, when one is given and the checkpoint has it: returns
// whether it had.
bool load_checkpoint(const std::string& path, AtaxxNet& net, torch::optim::Optimizer& optimizer, torch::Device device,
                     AuxiliaryHead soft_policy = {});

}  // namespace ataxx
