#!/usr/bin/env bash
# Installs every Debian package ataxx-zero needs to build, test and train on the CPU, and any
# named on the command line (tools/fuzz.sh adds clang's), then the npm packages of package.json:
# the browser view's charting library (embedded at build time) and the browser tests' driver
# (playwright-core, which drives Debian's chromium). Idempotent: when everything is already
# installed it only checks, and returns in a second.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache
  libtorch-dev libopenblas0-openmp
  libeigen3-dev libspdlog-dev libfmt-dev libyaml-cpp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libzstd-dev zlib1g-dev
  gnuplot-nox python3
  libboost-dev chromium nodejs
  qemu-user  # the tests run the engine on an emulated AVX2 processor
  "$@"
)
# Debian's nodejs comes without npm; a nodejs of NodeSource's brings its own, which Debian's npm
# package would conflict with.
command -v npm > /dev/null || packages+=(npm)

if ! command -v dpkg-query > /dev/null || ! command -v apt-get > /dev/null; then
  echo "setup: this script installs Debian's packages (Debian 12 or a derivative); elsewhere install" \
    "your distribution's packages of the same names, ${packages[*]}, then run \`npm ci\` in the checkout" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  as_root() {
    if ((EUID == 0)); then
      "$@"
    elif command -v sudo > /dev/null; then
      sudo "$@"
    else
      echo "setup: installing packages needs root: run it as root, or install sudo" >&2
      exit 1
    fi
  }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "setup: all ${#packages[@]} packages present"

cd "$(dirname "$0")/.."
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
echo "setup: npm packages present"
