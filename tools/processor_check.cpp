// Compiled for the baseline x86-64 whatever the build's -march (tools/CMakeLists.txt), and run as
// the program's first constructor. Plain C calls only: an inline function or template shared with
// the other sources (std::string's, say) could be linked in their copy, built for the processor
// this code is here to doubt.
#include "tools/processor_check.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ataxx {
namespace {

// The levels to suggest building for, best first.
constexpr const char* kLevels[] = {"x86-64-v4", "x86-64-v3", "x86-64-v2"};

// Appends to message[*used..size), cut short to fit.
void append(char* message, std::size_t size, std::size_t* used, const char* text) {
  if (*used + 1 >= size) return;
  const int written = std::snprintf(message + *used, size - *used, "%s", text);
  if (written <= 0) return;
  *used += static_cast<std::size_t>(written);
  if (*used > size - 1) *used = size - 1;
}

}  // namespace

bool processor_has(const char* feature) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  struct Known {
    const char* name;
    bool present;
  };
#define ATAXX_FEATURE(name) \
  { name, __builtin_cpu_supports(name) != 0 }
  const Known known[] = {ATAXX_FEATURE("sse3"),         ATAXX_FEATURE("ssse3"),
                         ATAXX_FEATURE("sse4.1"),       ATAXX_FEATURE("sse4.2"),
                         ATAXX_FEATURE("sse4a"),        ATAXX_FEATURE("popcnt"),
                         ATAXX_FEATURE("lzcnt"),        ATAXX_FEATURE("movbe"),
                         ATAXX_FEATURE("bmi"),          ATAXX_FEATURE("bmi2"),
                         ATAXX_FEATURE("avx"),          ATAXX_FEATURE("f16c"),
                         ATAXX_FEATURE("fma"),          ATAXX_FEATURE("fma4"),
                         ATAXX_FEATURE("xop"),          ATAXX_FEATURE("avx2"),
                         ATAXX_FEATURE("avxvnni"),      ATAXX_FEATURE("gfni"),
                         ATAXX_FEATURE("vaes"),         ATAXX_FEATURE("vpclmulqdq"),
                         ATAXX_FEATURE("avx512f"),      ATAXX_FEATURE("avx512cd"),
                         ATAXX_FEATURE("avx512bw"),     ATAXX_FEATURE("avx512dq"),
                         ATAXX_FEATURE("avx512vl"),     ATAXX_FEATURE("avx512ifma"),
                         ATAXX_FEATURE("avx512vbmi"),   ATAXX_FEATURE("avx512vbmi2"),
                         ATAXX_FEATURE("avx512vnni"),   ATAXX_FEATURE("avx512bf16"),
                         ATAXX_FEATURE("avx512bitalg"), ATAXX_FEATURE("avx512vpopcntdq"),
                         ATAXX_FEATURE("avx512fp16"),   ATAXX_FEATURE("x86-64-v2"),
                         ATAXX_FEATURE("x86-64-v3"),    ATAXX_FEATURE("x86-64-v4")};
#undef ATAXX_FEATURE
  for (const Known& k : known)
    if (std::strcmp(feature, k.name) == 0) return k.present;
#else
  (void)feature;  // elsewhere the features' names are other, and GCC has no such builtin
#endif
  return true;
}

bool describe_missing_features(const char* program, const char* arch, const char* const* built_for,
                               bool (*has)(const char*), char* message, std::size_t size) {
  std::size_t used = 0;
  if (size > 0) message[0] = '\0';
  int missing = 0;
  for (const char* const* feature = built_for; *feature != nullptr; ++feature) {
    if (has(*feature)) continue;
    append(message, size, &used, missing++ == 0 ? program : ", ");
    if (missing == 1) append(message, size, &used, ": this processor lacks ");
    append(message, size, &used, *feature);
  }
  if (missing == 0) return false;
  append(message, size, &used, ", which this build uses (-march=");
  append(message, size, &used, arch);
  append(message, size, &used, std::strcmp(arch, "native") == 0 ? ": the processor that built it)" : ")");
  append(message, size, &used, ". Build it on this processor, or for a level it runs: cmake -DATAXX_ARCH=");
  const char* level = "x86-64";
  for (const char* candidate : kLevels)
    if (has(candidate)) {
      level = candidate;
      break;
    }
  append(message, size, &used, level);
  append(message, size, &used, " (README \"Play speed\").\n");
  return true;
}

namespace {

__attribute__((constructor(101))) void check_processor() {
  char message[1024];
  if (!describe_missing_features(program_invocation_short_name, kBuiltForArch, kBuiltForFeatures, processor_has,
                                 message, sizeof message))
    return;
  std::fputs(message, stderr);
  std::_Exit(1);
}

}  // namespace
}  // namespace ataxx
