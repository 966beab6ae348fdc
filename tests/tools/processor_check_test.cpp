// The processor check every program makes before anything else of it runs (tools/processor_check.h).
#include "tools/processor_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

#include "tests/tools/run_binary.h"

namespace ataxx {
namespace {

// What Intel's Haswell runs of the features a build may use (qemu-x86_64 -cpu Haswell emulates it).
const std::set<std::string> kHaswell = {"sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "lzcnt",     "movbe",    "bmi",
                                        "bmi2", "avx",   "f16c",   "fma",    "avx2",   "x86-64-v2", "x86-64-v3"};
bool haswell_has(const char* feature) { return kHaswell.contains(feature); }

std::set<std::string> built_for() {
  std::set<std::string> features;
  for (const char* const* feature = kBuiltForFeatures; *feature != nullptr; ++feature) features.insert(*feature);
  return features;
}

TEST(ProcessorCheck, NamesEachFeatureMissingAndTheLevelToBuildFor) {
  const char* const features[] = {"avx2", "avx512f", "fma", "avx512vnni", nullptr};
  char message[512];
  ASSERT_TRUE(describe_missing_features("ataxx-engine", "native", features, haswell_has, message, sizeof message));
  EXPECT_STREQ(message,
               "ataxx-engine: this processor lacks avx512f, avx512vnni, which this build uses (-march=native: the "
               "processor that built it). Build it on this processor, or for a level it runs: cmake "
               "-DATAXX_ARCH=x86-64-v3 (README \"Play speed\").\n");
}

TEST(ProcessorCheck, SaysNothingWhereNothingIsMissing) {
  const char* const features[] = {"avx2", "fma", nullptr};
  char message[64] = "untouched";
  EXPECT_FALSE(describe_missing_features("ataxx-engine", "x86-64-v3", features, haswell_has, message, sizeof message));
  EXPECT_STREQ(message, "");
}

TEST(ProcessorCheck, CutsALongMessageShortToFit) {
  const char* const features[] = {"avx512f", nullptr};
  char message[20];
  ASSERT_TRUE(describe_missing_features("ataxx-zero", "znver4", features, haswell_has, message, sizeof message));
  EXPECT_STREQ(message, "ataxx-zero: this pr");
}

TEST(ProcessorCheck, ListsWhatTheCompilerWasToldTheProcessorHas) {
  const std::set<std::string> features = built_for();
#ifdef __AVX2__
  EXPECT_TRUE(features.contains("avx2"));
#else
  EXPECT_FALSE(features.contains("avx2"));
#endif
#ifdef __AVX512VNNI__
  EXPECT_TRUE(features.contains("avx512vnni"));
#else
  EXPECT_FALSE(features.contains("avx512vnni"));
#endif
  // This test runs on the processor it was built for (-march=native here).
  char message[512];
  EXPECT_FALSE(describe_missing_features("tools_tests", kBuiltForArch, kBuiltForFeatures, processor_has, message,
                                         sizeof message))
      << message;
  EXPECT_EQ(processor_has("avx2"), __builtin_cpu_supports("avx2") != 0);
  EXPECT_TRUE(processor_has("a feature of another processor family"));
}

// On an emulated processor, the engine either runs (a build that processor has every feature of)
// or says which of the build's features it lacks; it never dies of an illegal instruction.
TEST(ProcessorCheck, TheEngineOnAProcessorWithoutItsFeaturesSaysSoInsteadOfCrashing) {
  const std::set<std::string> kNehalem = {"sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "x86-64-v2"};
  for (const auto& [cpu, has] : {std::pair{"Haswell", kHaswell}, std::pair{"Nehalem", kNehalem}}) {
    SCOPED_TRACE(cpu);
    std::set<std::string> lacking;
    std::ranges::set_difference(built_for(), has, std::inserter(lacking, lacking.end()));
    const Ran ran = run_shell(std::string("qemu-x86_64 -cpu ") + cpu + " " + ATAXX_ENGINE_BINARY + " perft 2");
    if (lacking.empty()) {
      EXPECT_EQ(ran.status, 0) << ran.output;
      EXPECT_NE(ran.output.find("256\n"), std::string::npos) << ran.output;
      continue;
    }
    EXPECT_EQ(ran.status, 1) << ran.output;
    EXPECT_NE(ran.output.find("ataxx-engine: this processor lacks "), std::string::npos) << ran.output;
    for (const std::string& feature : lacking)
      EXPECT_NE(ran.output.find(" " + feature + ","), std::string::npos) << feature;
    EXPECT_EQ(ran.output.find("Illegal instruction"), std::string::npos) << ran.output;
  }
}

}  // namespace
}  // namespace ataxx
