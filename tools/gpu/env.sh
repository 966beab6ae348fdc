# Sourced by the scripts beside it, from the repository root: where build.sh unpacked the Debian
# packages of .deps/, so that the binaries built against them find their shared libraries.
ataxx_deps_root="$PWD/.deps-root/usr"
export LD_LIBRARY_PATH="$ataxx_deps_root/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
# The pip LibTorch's libtorch.so exports std::filesystem functions of its own, and a binary that
# loads it before libstdc++ calls those: remove_all jumped to address 0 there (UaiPlayer tests on
# the H100; the run itself calls none of them). Loading libstdc++ first restores the real ones.
export LD_PRELOAD="libstdc++.so.6${LD_PRELOAD:+:$LD_PRELOAD}"
