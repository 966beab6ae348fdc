#!/usr/bin/env bash
# On a machine without a GPU: compiles (syntax and types only, nothing is linked or run) the sources
# that only a CUDA build compiles, nn/graphed_forward.cpp and tests/cuda/, with ATAXX_CUDA_GRAPHS on,
# against Debian's LibTorch 1.13 CUDA headers and a CUDA toolkit's headers (CUDA_INCLUDE, default
# /usr/local/cuda/include). Two gaps of the Debian headers are filled in a temporary folder: the
# generated cuda_cmake_macros.h, and the capture-mode parameter that LibTorch 2.x's
# CUDAGraph::capture_begin has. The real build is tools/gpu/build.sh on your GPU machine.
# Usage: tools/gpu/check_sources.sh [BUILD_DIR]   (a configured build, default build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
cuda_include="${CUDA_INCLUDE:-/usr/local/cuda/include}"
[[ -f "$cuda_include/cuda_runtime_api.h" ]] || { echo "no CUDA headers in $cuda_include (set CUDA_INCLUDE)" >&2; exit 1; }
[[ -f "$build/compile_commands.json" ]] || { echo "no $build/compile_commands.json: configure a build first" >&2; exit 1; }
shim="$(mktemp -d)"
trap 'rm -rf "$shim"' EXIT
mkdir -p "$shim/c10/cuda/impl" "$shim/ATen/cuda"
echo '#define C10_CUDA_BUILD_SHARED_LIBS' > "$shim/c10/cuda/impl/cuda_cmake_macros.h"
sed 's/void capture_begin(MempoolId_t pool={0, 0});/void capture_begin(MempoolId_t pool={0, 0}, cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal);/' \
  /usr/include/ATen/cuda/CUDAGraph.h > "$shim/ATen/cuda/CUDAGraph.h"
grep -q "cudaStreamCaptureMode mode" "$shim/ATen/cuda/CUDAGraph.h" || { echo "CUDAGraph.h not as expected" >&2; exit 1; }
python3 - "$build" "$shim" "$cuda_include" "$PWD" <<'EOF'
import json, shlex, subprocess, sys
build, shim, cuda_include, root = sys.argv[1:]
commands = json.load(open(f"{build}/compile_commands.json"))

def command_of(target):  # the command of a file of a target and its folder, without its input and output
    entry = next(c for c in commands if f"/{target}.dir/" in c["command"])
    args = [a for a in shlex.split(entry["command"]) if not a.endswith("ccache")]
    for flag in ("-o", "-c"):
        i = args.index(flag)
        del args[i:i + 2]
    return args, entry["directory"]

failed = 0
# Each CUDA-only file with the flags of its target in the CPU build (tests/cuda: those of another suite).
for source, target in (("nn/graphed_forward.cpp", "ataxx_nn"), ("tests/cuda/cuda_test.cpp", "trainer_tests")):
    args, directory = command_of(target)
    check = [args[0], "-DATAXX_CUDA_GRAPHS", f"-I{shim}", f"-I{cuda_include}", "-fsyntax-only", *args[1:],
             "-c", f"{root}/{source}"]
    ok = subprocess.run(check, cwd=directory).returncode == 0
    print(f"{source}: {'ok' if ok else 'FAILED'}")
    failed += not ok
sys.exit(1 if failed else 0)
EOF
