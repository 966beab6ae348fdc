#!/usr/bin/env bash
# Run on the CUDA machine from the repository root, with .deps/ carried along (fetch_deps.sh):
# unpacks the Debian packages beside the checkout and builds into build-gpu/, tests included (the
# CUDA ones too) and CUDA graphs on where they build, against the LibTorch of the machine's pip PyTorch.
# Targets named after it are all it builds: `tools/gpu/build.sh ataxx-zero` before a training run.
# Usage: tools/gpu/build.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
# Unpacked outside .deps/: a later call that carries .deps/ again replaces that folder on the machine.
mkdir -p .deps-root
for deb in .deps/*.deb; do dpkg-deb -x "$deb" .deps-root; done
source tools/gpu/env.sh
root="$ataxx_deps_root"
torch_prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
# One object a file (no unity build): 16 cores have work for each, and the CUDA-only code is
# compiled as on every device machine so far.
configure() {  # $1: ON or OFF, CUDA graphs
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=OFF -DATAXX_CUDA_TESTS=ON -DATAXX_SERVER=OFF -DATAXX_CUDA_GRAPHS="$1" \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$root;$root/lib/x86_64-linux-gnu/cmake;$root/share/eigen3/cmake" \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DZSTD_INCLUDE_DIR="$root/include"
}
# The CUDA graphs have only been compiled against 1.13's headers (check_sources.sh): should they fail
# against this LibTorch, the rest still builds without them, so the device time is not lost.
targets=()
for target in "$@"; do targets+=(--target "$target"); done
if ! { configure ON && cmake --build build-gpu "${targets[@]}" -- -k 0; }; then
  echo "build.sh: the build with CUDA graphs failed (errors above); building without them" >&2
  configure OFF
  cmake --build build-gpu "${targets[@]}" -- -k 0
fi
