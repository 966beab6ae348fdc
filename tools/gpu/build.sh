#!/usr/bin/env bash
# Builds ataxx-zero for your GPU machine into build-gpu/ (docs/gpu.md): Release, the tests included
# (the CUDA ones of tests/cuda/ too), CUDA graphs on where they compile (else built without them,
# and said so), the browser view on where its dependencies are found. Run it from anywhere.
#
# Needs CMake >= 3.24 (for `native`), Ninja, a C++20 compiler, a CUDA toolkit (nvcc) of the same major
# version as the LibTorch's CUDA, and the libraries of docs/gpu.md. Settings, all optional:
#   TORCH_PREFIX  where LibTorch is: an unpacked LibTorch archive from pytorch.org (the folder with
#                 share/cmake/Torch in it). Default: the LibTorch of python3's PyTorch (`pip install
#                 torch`), `python3 -c 'import torch; print(torch.utils.cmake_prefix_path)'`.
#   CUDA_ARCHS    the GPU architectures to build for, as CMAKE_CUDA_ARCHITECTURES takes them. Default
#                 native: the GPUs of the machine that builds. On a machine without a GPU, or for
#                 other cards, name them: 86 (RTX 30xx, A10), 89 (RTX 40xx, L4, L40), 80 (A100),
#                 90 (H100, H200), 120 (RTX 50xx), "86;89" for two.
#   SERVER        the browser view (`ataxx-zero serve`): auto (default) builds it where Boost's
#                 headers (1.74 or newer) and node_modules/uplot are found, and else says what is
#                 missing and builds without it; ON insists, OFF leaves it out.
#
# A GPU machine without a package manager: on a Debian 12 machine, tools/gpu/fetch_deps.sh
# downloads the libraries into .deps/; copy that folder into this checkout on the GPU machine, and
# this script unpacks them into .deps-root/ and builds against them (tools/gpu/env.sh points the
# programs at their shared libraries).
# Usage: tools/gpu/build.sh [TARGET...]   (only the targets named, e.g. `tools/gpu/build.sh ataxx-zero`)
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { echo "build.sh: $*" >&2; }

prefixes=()
zstd=()
if compgen -G ".deps/*.deb" > /dev/null; then
  # Unpacked outside .deps/, so that a fresh copy of .deps/ can replace that folder.
  mkdir -p .deps-root
  for deb in .deps/*.deb; do dpkg-deb -x "$deb" .deps-root; done
  if [[ -d .deps/uplot && ! -f node_modules/uplot/dist/uPlot.iife.min.js ]]; then
    mkdir -p node_modules
    cp -r .deps/uplot node_modules/
  fi
  root="$PWD/.deps-root/usr"
  prefixes=("$root" "$root/lib/x86_64-linux-gnu/cmake" "$root/share/eigen3/cmake")
  zstd=(-DZSTD_INCLUDE_DIR="$root/include")
  echo "build.sh: building against the packages of .deps/ (unpacked into .deps-root/)"
fi
source tools/gpu/env.sh

if [[ -n "${TORCH_PREFIX:-}" ]]; then
  torch_prefix="$TORCH_PREFIX"
else
  torch_info="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path); print(torch.version.cuda or "")')" ||
    { say "python3 cannot import torch: \`pip install torch\` (a CUDA build), or set TORCH_PREFIX to an unpacked LibTorch archive (docs/gpu.md)"; exit 1; }
  torch_prefix="$(sed -n 1p <<< "$torch_info")"
  torch_cuda="$(sed -n 2p <<< "$torch_info")"
  [[ -n "$torch_cuda" ]] ||
    { say "python3's PyTorch ($torch_prefix) is built without CUDA: install a CUDA build of it (docs/gpu.md)"; exit 1; }
  echo "build.sh: LibTorch of python3's PyTorch (CUDA $torch_cuda): $torch_prefix"
fi
prefix_path="$(IFS=';'; echo "$torch_prefix${prefixes[*]:+;${prefixes[*]}}")"

cuda_archs="${CUDA_ARCHS:-native}"
if [[ "$cuda_archs" == native ]]; then
  cmake_version="$(cmake --version | sed -n '1s/[^0-9]*\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')"
  read -r major minor <<< "$cmake_version"
  if ((major < 3 || (major == 3 && minor < 24))); then
    say "CMake $major.$minor knows no CUDA architecture \`native\` (3.24 does): install a newer CMake (\`pip install cmake\`), or name the architectures, e.g. CUDA_ARCHS=89"
    exit 1
  fi
fi

# The browser view, found as server/CMakeLists.txt finds it, with the same prefixes.
server="${SERVER:-auto}"
if [[ "$server" == auto ]]; then
  probe="$(mktemp -d)"
  trap 'rm -rf "$probe"' EXIT
  cat > "$probe/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.22)
project(probe LANGUAGES NONE)
find_package(Boost 1.74 QUIET)
set(missing "")
if(NOT Boost_FOUND)
  list(APPEND missing "Boost's headers, 1.74 or newer (libboost-dev)")
endif()
if(NOT EXISTS "${SOURCE}/node_modules/uplot/dist/uPlot.iife.min.js")
  list(APPEND missing "node_modules/uplot (npm ci)")
endif()
string(REPLACE ";" ", " missing "${missing}")
file(WRITE "${CMAKE_BINARY_DIR}/missing.txt" "${missing}")
EOF
  cmake -S "$probe" -B "$probe/build" -DCMAKE_PREFIX_PATH="$prefix_path" -DSOURCE="$PWD" > "$probe/log.txt" 2>&1 ||
    { cat "$probe/log.txt" >&2; exit 1; }
  missing="$(cat "$probe/build/missing.txt")"
  if [[ -z "$missing" ]]; then
    server=ON
  else
    server=OFF
    say "building without the browser view (\`ataxx-zero serve\`), which needs what this machine lacks: $missing."
    say "  For it: apt-get install libboost-dev (or your distribution's packages), npm ci (docs/gpu.md)."
  fi
fi

# One object a file (no unity build): a machine with many cores has work for each of them.
configure() {  # $1: ON or OFF, CUDA graphs
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=OFF -DATAXX_CUDA_TESTS=ON \
    -DATAXX_SERVER="$server" -DATAXX_CUDA_GRAPHS="$1" -DCMAKE_PREFIX_PATH="$prefix_path" \
    -DCMAKE_CUDA_ARCHITECTURES="$cuda_archs" "${zstd[@]}"
}
hint() {
  say "the build failed (errors above). Where CMake found no GPU for CUDA_ARCHITECTURES native, name the"
  say "  architectures (CUDA_ARCHS=89, see this script's header); where it found no CUDA toolkit, install one of"
  say "  the LibTorch's CUDA major version; SERVER=OFF leaves the browser view out."
}
targets=()
for target in "$@"; do targets+=(--target "$target"); done
# CUDA graphs need LibTorch 2.x built with CUDA: should they not configure or compile against this
# LibTorch, the rest builds without them (inference.cuda_graphs then says it needs them).
if ! { configure ON && cmake --build build-gpu "${targets[@]}" -- -k 0; }; then
  say "the build with CUDA graphs failed (errors above); building without them"
  { configure OFF && cmake --build build-gpu "${targets[@]}" -- -k 0; } || { hint; exit 1; }
fi
echo "build.sh: built into build-gpu/ (CUDA architectures $cuda_archs, browser view $server)"
