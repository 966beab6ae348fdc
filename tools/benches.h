// The `bench` subcommands that live in files of their own; bench_command.cpp adds them all.
// Each prints figures and asserts nothing: speed is read, never tested.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace ataxx::cli {

// The network a benchmark builds: its shape, device and precision.
struct BenchNetwork {
  int blocks = 6;
  int channels = 64;
  std::string device = "cpu";
  bool bf16 = false;
  bool int8 = false;
};

// --blocks, --channels, --device and --bf16, whose help says what bf16 means to that benchmark.
void add_network_options(CLI::App& bench, BenchNetwork& network, const std::string& bf16_help);

void add_inference_benches(CLI::App& bench);  // bench nn, bench selfplay
void add_train_bench(CLI::App& bench);        // bench train

}  // namespace ataxx::cli
