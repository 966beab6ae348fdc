// YAML run configurations: rejected with std::runtime_error naming the problem, or a config
// whose effective YAML reads back to the same config.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "config/run_config.h"
#include "fuzz/check.h"

using namespace ataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  RunConfig config;
  try {
    config = parse_run_config(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::string yaml = to_yaml(config);
  FUZZ_CHECK(to_yaml(parse_run_config(yaml, "round trip")) == yaml);
  return 0;
}
