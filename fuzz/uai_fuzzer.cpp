// UAI command streams: any sequence of lines leaves the engine answering, never crashing or
// hanging. Lines that would start processes or read files (setoption values naming a command or
// a model) are left out; a final `stop` ends every search the stream started.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>
#include <string>

#include "uai/uai_engine.h"
#include "util/text.h"

using namespace ataxx;

namespace {

bool reaches_outside(std::string line) {
  std::transform(line.begin(), line.end(), line.begin(), [](unsigned char c) { return std::tolower(c); });
  return line.find("cmd") != std::string::npos || line.find("model") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::ostringstream out;
  UaiEngine engine(out);
  engine.handle("setoption name Player value random");  // the input may choose another
  for (const std::string& line : split(std::string_view(reinterpret_cast<const char*>(data), size), '\n')) {
    if (reaches_outside(line)) continue;
    if (!engine.handle(line)) break;
  }
  engine.handle("stop");
  engine.finish();
  return 0;
}
