// Prints the processor levels and features this machine runs, for tests/CMakeLists.txt to build
// the direct convolution's tests for each (GCC 12's __builtin_cpu_supports names the levels).
#include <cstdio>

int main() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v3")) std::printf("x86-64-v3;");
  if (__builtin_cpu_supports("x86-64-v4")) std::printf("x86-64-v4;");
  if (__builtin_cpu_supports("avxvnni")) std::printf("avxvnni;");
}
