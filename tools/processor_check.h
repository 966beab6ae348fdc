// A program built for a processor level (-march=ATAXX_ARCH, native by default) dies of SIGILL on a
// processor without it, at whatever instruction comes first. Each program checks, before anything
// else of it runs, that the processor has every instruction set the build may use, and where it
// lacks one says which and how to build for it instead.
#pragma once

#include <cstddef>

namespace ataxx {

// The instruction sets the program's code may use: the compiler's for the build's -march, null
// ended (tools/processor_built_for.cpp, compiled with the build's flags).
extern const char* const kBuiltForFeatures[];
// The build's -march (ATAXX_ARCH).
extern const char kBuiltForArch[];

// Whether this processor (and its operating system) runs the instruction set of that name, as GCC's
// __builtin_cpu_supports names them; true for a name it does not know.
bool processor_has(const char* feature);

// Writes into `message` (of `size` bytes, cut short to fit) why `program` cannot run here: the
// features of the null-ended `built_for` that `has` lacks. Returns false, writing nothing, when
// none is missing.
bool describe_missing_features(const char* program, const char* arch, const char* const* built_for,
                               bool (*has)(const char*), char* message, std::size_t size);

}  // namespace ataxx
