// Writes model-file seeds for fuzz_model_file into a folder: a whole play file and checkpoint of
// the smallest network (too large to commit), and the same files without their weights.
#include <torch/torch.h>

#include <cstdio>
#include <string>

#include "nn/model_file.h"

using namespace ataxx;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds FOLDER\n");
    return 2;
  }
  const std::string dir = argv[1];
  torch::manual_seed(1);
  AtaxxNet net(ModelShape{1, 8});
  ModelInfo info;
  info.name = "seed";
  save_play_file(dir + "/whole-1x8.net", net, info);
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const CheckpointInfo checkpoint{
      .shape = ModelShape{1, 8}, .boards = {}, .rules = {}, .step = 7, .optimizer = "sgd", .config_yaml = "run: {}\n"};
  save_checkpoint(dir + "/whole-1x8.ckpt", net, sgd, checkpoint);

  // Every header field of a play file, no weights: small enough to commit.
  torch::serialize::OutputArchive header;
  const auto put = [&](const std::string& key, const c10::IValue& value) { header.write(key, value); };
  put("format", std::string("ataxx-zero play file"));
  put("version", std::int64_t{1});
  put("encoding_version", std::int64_t{kEncodingVersion});
  put("blocks", std::int64_t{1});
  put("channels", std::int64_t{8});
  put("halfmove_limit", std::int64_t{100});
  put("repetition_limit", std::int64_t{3});
  put("step", std::int64_t{0});
  put("name", std::string("seed"));
  put("parent", std::string(""));
  write_model_archive(header, dir + "/header-only.net");
  return 0;
}
