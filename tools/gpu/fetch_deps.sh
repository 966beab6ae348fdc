#!/usr/bin/env bash
# For a GPU machine without a package manager (one that has CMake, nvcc and a pip PyTorch, but no
# apt): run this on a Debian 12 machine with apt (it installs nothing) to download the
# Debian packages the build needs into .deps/ (git-ignored, about 4 MiB); copy that folder into the
# checkout on the GPU machine, where tools/gpu/build.sh unpacks and builds against them. The GPU
# machine's C library must be as new as Debian 12's (glibc 2.36).
# SERVER=ON also fetches what the browser view needs: Boost's headers (about 10 MiB), and
# node_modules/uplot of this checkout (tools/setup.sh's npm ci fills it).
# ENGINES=DIR copies the public engines found in DIR (zataxx, autaxx, tiktaxx: programs that need only
# the C library) into .deps/engines/, to play matches against them on the GPU machine, e.g.
# `--p2 uai:cmd=.deps/engines/zataxx,movetime=100`; for measurement only, never part of the build.
# Usage: [SERVER=ON] [ENGINES=DIR] tools/gpu/fetch_deps.sh
set -euo pipefail
engines="${ENGINES:-}"
[[ -z "$engines" ]] || engines="$(cd "$engines" && pwd)"  # relative to where it is run from
cd "$(dirname "$0")/../.."
packages=(
  libyaml-cpp-dev libyaml-cpp0.7 libspdlog-dev libspdlog1.10 libfmt-dev libfmt9
  libeigen3-dev libcli11-dev libzstd-dev libzstd1 zlib1g-dev zlib1g
  libgtest-dev libgmock-dev nlohmann-json3-dev
)
if [[ "${SERVER:-OFF}" == ON ]]; then
  packages+=(libboost1.74-dev)
  [[ -f node_modules/uplot/dist/uPlot.iife.min.js ]] ||
    { echo "fetch_deps.sh: no node_modules/uplot in this checkout: run npm ci (or tools/setup.sh) first" >&2; exit 1; }
  mkdir -p .deps/uplot/dist
  cp node_modules/uplot/{LICENSE,package.json} .deps/uplot/
  cp node_modules/uplot/dist/{uPlot.iife.min.js,uPlot.min.css} .deps/uplot/dist/
fi
mkdir -p .deps
cd .deps
apt-get download "${packages[@]}"
ls -1 ./*.deb
if [[ -n "$engines" ]]; then
  mkdir -p engines
  for engine in zataxx autaxx tiktaxx; do
    [[ ! -f "$engines/$engine" ]] || cp "$engines/$engine" engines/
  done
  ls -1 engines/
fi
