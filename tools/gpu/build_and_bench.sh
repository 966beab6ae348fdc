#!/usr/bin/env bash
# Run on the CUDA machine from the repository root, with .deps/ carried along (fetch_deps.sh):
# unpacks the Debian packages, builds against the LibTorch of the pip PyTorch, and prints the
# network and search benchmarks. Usage: tools/gpu/build_and_bench.sh [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-gpu-bench}"
mkdir -p "$out" .deps/root
for deb in .deps/*.deb; do dpkg-deb -x "$deb" .deps/root; done
root="$PWD/.deps/root/usr"
torch_prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
export LD_LIBRARY_PATH="$root/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"

cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DATAXX_BUILD_TESTS=OFF \
  -DCMAKE_PREFIX_PATH="$torch_prefix;$root;$root/lib/x86_64-linux-gnu/cmake;$root/share/eigen3/cmake" \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DZSTD_INCLUDE_DIR="$root/include" 2>&1 | tee "$out/cmake.log"
cmake --build build-gpu -j"$(nproc)" 2>&1 | tail -5 | tee "$out/build.log"

bin=build-gpu/tools/ataxx-zero
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
for shape in "6 64" "10 128"; do
  set -- $shape
  "$bin" bench nn --device cuda --blocks "$1" --channels "$2" --batches 1 8 32 128 512 1024 2048 4096 \
    --clients 32 --seconds 2 | tee "$out/bench-nn-$1x$2-fp32.txt"
  "$bin" bench nn --device cuda --bf16 --blocks "$1" --channels "$2" --batches 1 8 32 128 512 1024 2048 4096 \
    --clients 32 --seconds 2 | tee "$out/bench-nn-$1x$2-bf16.txt"
done
for shape in "6 64" "10 128"; do
  set -- $shape
  for precision in "" "--bf16"; do
    "$bin" bench selfplay --device cuda $precision --blocks "$1" --channels "$2" --threads $(( $(nproc) - 2 )) \
      --games 256 --max-batch 2048 --server-threads 2 --seconds 20 | tee -a "$out/bench-selfplay-$1x$2.txt"
  done
done
"$bin" bench mcts | tee "$out/bench-mcts.txt"
