# Source it (`source tools/gpu/env.sh`, from the repository root) before running the programs and
# tests of build-gpu/ on your GPU machine. The scripts beside it do.
# Where build.sh unpacked the packages of .deps/ (a machine without a package manager), so that the
# programs built against them find their shared libraries; elsewhere that folder is absent, harmless.
ataxx_deps_root="$PWD/.deps-root/usr"
export LD_LIBRARY_PATH="$ataxx_deps_root/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
# The pip LibTorch's libtorch.so exports std::filesystem functions of its own, and a program that
# loads it before libstdc++ calls those: remove_all jumped to address 0 (the UaiPlayer tests on an
# H100 machine; a training run calls none of them). Loading libstdc++ first restores the real ones.
export LD_PRELOAD="libstdc++.so.6${LD_PRELOAD:+:$LD_PRELOAD}"
