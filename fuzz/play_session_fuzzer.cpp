// The browser view's play protocol: any sequence of WebSocket messages (one per line) leaves the
// session answering with well-formed messages, never crashing or hanging. The engine is the
// alpha-beta player (no net), its searches bounded small so that a run explores the protocol.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz/check.h"
#include "server/play_session.h"
#include "util/text.h"

using namespace ataxx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::mutex mutex;
  std::vector<std::string> sent;
  {
    server::PlaySession session({.nets = nullptr, .threads = 1, .max_visits = 16, .max_movetime_ms = 1},
                                [&](std::string text) {
                                  const std::lock_guard lock(mutex);
                                  sent.push_back(std::move(text));
                                });
    for (const std::string& line : split(std::string_view(reinterpret_cast<const char*>(data), size), '\n'))
      session.on_message(line);
  }
  for (const std::string& text : sent) {
    const auto message = nlohmann::json::parse(text, nullptr, false);
    FUZZ_CHECK(message.is_object() && message.contains("type"));
    const std::string type = message["type"];
    FUZZ_CHECK(type == "games" || type == "state" || type == "think" || type == "error" || type == "analysis");
    if (type == "analysis") FUZZ_CHECK(message.contains("id") && message["id"].is_string());
  }
  return 0;
}
