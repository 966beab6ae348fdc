#!/usr/bin/env bash
# Run here (Debian 12, with apt): downloads the Debian packages the CUDA machine lacks into
# .deps/ (git-ignored), to be carried there. The CUDA machine has CMake, nvcc and a pip PyTorch
# but no apt; build.sh unpacks these beside the checkout.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deps
cd .deps
apt-get download \
  libyaml-cpp-dev libyaml-cpp0.7 libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 \
  libeigen3-dev libcli11-dev libzstd-dev libzstd1 zlib1g-dev zlib1g \
  libgtest-dev libgmock-dev
ls -1 *.deb
# The public engines to measure against (../shared/engines, beside the checkout; they need only libc):
# the GPU engine plays them there, e.g. `--p2 uai:cmd=.deps/engines/zataxx,movetime=100`.
# For measurement only: never part of the build or the tests.
if [[ -d ../../shared/engines ]]; then
  mkdir -p engines
  cp ../../shared/engines/{zataxx,autaxx,tiktaxx} engines/
  ls -1 engines/*
fi
