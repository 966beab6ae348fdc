// The analysis engine's JSON lines: any input leaves it answering with JSON objects, each with its
// query's id or an error, never crashing or hanging. Its nets are small random ones (Ataxx on 7x7
// and the hexagon, Schataxx); every search the input started is stopped at its end (terminate_all).
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis_engine.h"
#include "fuzz/check.h"
#include "nn/model_info.h"
#include "util/text.h"

using namespace ataxx;

namespace {

const NetShelf& nets() {
  static const NetShelf shelf = [] {
    const auto dir = std::filesystem::temp_directory_path() / ("ataxx-fuzz-analysis-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    write_random_play_file((dir / "ataxx.net").string(), {1, 8}, 1, BoardSet::parse("7x7,hexagon"));
    write_random_play_file((dir / "schataxx.net").string(), {1, 8}, 2, {}, {}, SchataxxGame::kName);
    return NetShelf("", dir.string());
  }();
  return shelf;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::mutex mutex;
  std::vector<std::string> sent;
  {
    analysis::Engine engine({.nets = &nets(), .threads = 2, .default_visits = 16}, [&](const std::string& line) {
      const std::lock_guard lock(mutex);
      sent.push_back(line);
    });
    for (const std::string& line : split(std::string_view(reinterpret_cast<const char*>(data), size), '\n'))
      engine.handle(line);
    engine.handle(R"({"id":"end","action":"terminate_all"})");
    engine.finish();
  }
  for (const std::string& text : sent) {
    const auto answer = nlohmann::json::parse(text, nullptr, false);
    FUZZ_CHECK(answer.is_object());
    FUZZ_CHECK(answer.contains("id") || answer.contains("error"));
    if (answer.contains("turnNumber")) FUZZ_CHECK(answer["isDuringSearch"].is_boolean());
  }
  return 0;
}
