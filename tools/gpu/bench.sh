#!/usr/bin/env bash
# Run on the CUDA machine after build.sh: the network, self-play and training benchmarks of the
# 6x64 and 10x128 nets in fp32 and bf16 (inference also with CUDA graphs), each printed and written
# to OUTPUT_DIR.
# Usage: tools/gpu/bench.sh [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/gpu/env.sh
out="${1:-gpu-bench}"
mkdir -p "$out"
bin=build-gpu/tools/ataxx-zero
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
for shape in "6 64" "10 128"; do
  set -- $shape
  for precision in "" "--bf16" "--cuda-graphs" "--bf16 --cuda-graphs"; do
    "$bin" bench nn --device cuda $precision --blocks "$1" --channels "$2" \
      --batches 1 8 32 128 512 1024 2048 4096 --clients 32 --seconds 1 | tee -a "$out/bench-nn.txt"
  done
done
for shape in "6 64" "10 128"; do
  set -- $shape
  for precision in "" "--bf16" "--cuda-graphs" "--bf16 --cuda-graphs"; do
    "$bin" bench selfplay --device cuda $precision --blocks "$1" --channels "$2" --threads $(( $(nproc) - 2 )) \
      --games 256 --max-batch 2048 --server-threads 2 --seconds 15 | tee -a "$out/bench-selfplay.txt"
  done
done
for shape in "6 64" "10 128"; do
  set -- $shape
  for precision in "" "--bf16"; do
    "$bin" bench train --device cuda $precision --blocks "$1" --channels "$2" --batch 1024 --seconds 10 \
      | tee -a "$out/bench-train.txt"
  done
done
