#include "nn/convolution_kernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "nn/convolution_plan.h"

#if defined(__x86_64__)
// GCC 12 warns of the intrinsics' own _mm512_undefined_* operands (its bug 105593, fixed in 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

// The level the build's own flags reach (convolution_kernels.inc numbers them). With GCC on x86-64
// nn/CMakeLists.txt builds this file for plain x86-64, so that each level's code holds its own
// level's instructions and no more, whatever the program is built for.
#if defined(__AVX512VNNI__) && defined(__AVX512BF16__)
#define ATAXX_BUILD_LEVEL 5
#elif defined(__AVX512VNNI__)
#define ATAXX_BUILD_LEVEL 4
#elif defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512CD__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__)
#define ATAXX_BUILD_LEVEL 3
#elif defined(__AVX2__) && defined(__FMA__) && defined(__AVXVNNI__)
#define ATAXX_BUILD_LEVEL 2
#elif defined(__AVX2__) && defined(__FMA__)
#define ATAXX_BUILD_LEVEL 1
#else
#define ATAXX_BUILD_LEVEL 0
#endif

// GCC builds every x86-64 level, each under a target pragma that adds the level's features to the
// file's (x86-64-v3's and x86-64-v4's spelled out: `arch=` would take away features the file's own
// intrinsics may be declared with); other compilers build the build's own level alone.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define ATAXX_EVERY_LEVEL 1
#define ATAXX_LEVEL_BUILT(level) 1
#define ATAXX_PRAGMA(text) _Pragma(#text)
#define ATAXX_TARGET_BEGIN(...) _Pragma("GCC push_options") ATAXX_PRAGMA(GCC target(__VA_ARGS__))
#define ATAXX_TARGET_END _Pragma("GCC pop_options")
#else
#define ATAXX_EVERY_LEVEL 0
#define ATAXX_LEVEL_BUILT(level) (level == ATAXX_BUILD_LEVEL)
#define ATAXX_TARGET_BEGIN(...)
#define ATAXX_TARGET_END
#endif
#define ATAXX_X86_64_V3 "popcnt,sse4.2,avx,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe"
#define ATAXX_X86_64_V4 ATAXX_X86_64_V3, "avx512f,avx512bw,avx512cd,avx512dq,avx512vl"

// GCC 12 warns of the intrinsics' own operands here too, and of vector arguments whose ABI
// differs between levels (each level's functions call only their own).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace ataxx::convolution {
namespace {

namespace plain {
#define ATAXX_KERNEL_LEVEL 0
#include "nn/convolution_kernels.inc"
#undef ATAXX_KERNEL_LEVEL
}  // namespace plain

#if ATAXX_LEVEL_BUILT(1)
ATAXX_TARGET_BEGIN(ATAXX_X86_64_V3)
namespace avx2 {
#define ATAXX_KERNEL_LEVEL 1
#include "nn/convolution_kernels.inc"
#undef ATAXX_KERNEL_LEVEL
}  // namespace avx2
ATAXX_TARGET_END
#endif

#if ATAXX_LEVEL_BUILT(2)
ATAXX_TARGET_BEGIN(ATAXX_X86_64_V3, "avxvnni")
namespace avx_vnni {
#define ATAXX_KERNEL_LEVEL 2
#include "nn/convolution_kernels.inc"
#undef ATAXX_KERNEL_LEVEL
}  // namespace avx_vnni
ATAXX_TARGET_END
#endif

#if ATAXX_LEVEL_BUILT(3)
ATAXX_TARGET_BEGIN(ATAXX_X86_64_V4)
namespace avx512 {
#define ATAXX_KERNEL_LEVEL 3
#include "nn/convolution_kernels.inc"
#undef ATAXX_KERNEL_LEVEL
}  // namespace avx512
ATAXX_TARGET_END
#endif

#if ATAXX_LEVEL_BUILT(4)
ATAXX_TARGET_BEGIN(ATAXX_X86_64_V4, "avx512vnni")
namespace avx512_vnni {
#define ATAXX_KERNEL_LEVEL 4
#include "nn/convolution_kernels.inc"
#undef ATAXX_KERNEL_LEVEL
}  // namespace avx512_vnni
ATAXX_TARGET_END
#endif

#if ATAXX_LEVEL_BUILT(5)
ATAXX_TARGET_BEGIN(ATAXX_X86_64_V4, "avx512vnni,avx512bf16")
namespace avx512_bf16 {
#define ATAXX_KERNEL_LEVEL 5
#include "nn/convolution_kernels.inc"
#undef ATAXX_KERNEL_LEVEL
}  // namespace avx512_bf16
ATAXX_TARGET_END
#endif

#define ATAXX_KERNEL_SET(level, name) KernelSet{level, name::kBf16, name::kInt8, name::run}

constexpr KernelSet kBuilt[] = {
    ATAXX_KERNEL_SET(CpuKernels::kPlain, plain),
#if ATAXX_LEVEL_BUILT(1)
    ATAXX_KERNEL_SET(CpuKernels::kAvx2, avx2),
#endif
#if ATAXX_LEVEL_BUILT(2)
    ATAXX_KERNEL_SET(CpuKernels::kAvxVnni, avx_vnni),
#endif
#if ATAXX_LEVEL_BUILT(3)
    ATAXX_KERNEL_SET(CpuKernels::kAvx512, avx512),
#endif
#if ATAXX_LEVEL_BUILT(4)
    ATAXX_KERNEL_SET(CpuKernels::kAvx512Vnni, avx512_vnni),
#endif
#if ATAXX_LEVEL_BUILT(5)
    ATAXX_KERNEL_SET(CpuKernels::kAvx512Bf16, avx512_bf16),
#endif
};

}  // namespace

std::span<const KernelSet> built_kernel_sets() { return kBuilt; }

bool processor_runs(CpuKernels level) {
  if (static_cast<int>(level) <= ATAXX_BUILD_LEVEL) return true;  // the program would not run otherwise
#if ATAXX_EVERY_LEVEL
  __builtin_cpu_init();
  const bool v3 = __builtin_cpu_supports("x86-64-v3"), v4 = __builtin_cpu_supports("x86-64-v4");
  switch (level) {
    case CpuKernels::kPlain:
      return true;
    case CpuKernels::kAvx2:
      return v3;
    case CpuKernels::kAvxVnni:
      return v3 && __builtin_cpu_supports("avxvnni");
    case CpuKernels::kAvx512:
      return v4;
    case CpuKernels::kAvx512Vnni:
      return v4 && __builtin_cpu_supports("avx512vnni");
    case CpuKernels::kAvx512Bf16:
      return v4 && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bf16");
  }
#endif
  return false;
}

}  // namespace ataxx::convolution

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#undef ATAXX_BUILD_LEVEL
#undef ATAXX_EVERY_LEVEL
#undef ATAXX_LEVEL_BUILT
#undef ATAXX_PRAGMA
#undef ATAXX_TARGET_BEGIN
#undef ATAXX_TARGET_END
#undef ATAXX_X86_64_V3
#undef ATAXX_X86_64_V4
#undef ATAXX_KERNEL_SET
