#!/usr/bin/env bash
# Run on the CUDA machine from the repository root, with .deps/ carried along (fetch_deps.sh):
# unpacks the Debian packages beside the checkout and builds into build-gpu/, tests included (the
# CUDA ones too) and CUDA graphs on, against the LibTorch of the machine's pip PyTorch.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deps/root
for deb in .deps/*.deb; do dpkg-deb -x "$deb" .deps/root; done
source tools/gpu/env.sh
root="$ataxx_deps_root"
torch_prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DATAXX_CUDA_TESTS=ON -DATAXX_CUDA_GRAPHS=ON \
  -DCMAKE_PREFIX_PATH="$torch_prefix;$root;$root/lib/x86_64-linux-gnu/cmake;$root/share/eigen3/cmake" \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DZSTD_INCLUDE_DIR="$root/include"
cmake --build build-gpu -- -k 0
