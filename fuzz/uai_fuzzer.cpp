// UAI command streams: any sequence of lines leaves the engine answering, never crashing or
// hanging. Lines that would read files (a setoption naming a model) are left out; those naming an
// external engine (`uai:cmd=...`) go in: the engine, started as a GUI starts it, must refuse them.
// A final `stop` ends every search the stream started.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>
#include <string>

#include "uai/uai_engine.h"
#include "util/text.h"

using namespace ataxx;

namespace {

bool reads_a_file(std::string line) {
  std::transform(line.begin(), line.end(), line.begin(), [](unsigned char c) { return std::tolower(c); });
  return line.find("model") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::ostringstream out;
  UaiEngine engine(out);
  engine.handle("setoption name Player value random");  // the input may choose another
  for (const std::string& line : split(std::string_view(reinterpret_cast<const char*>(data), size), '\n')) {
    if (reads_a_file(line)) continue;
    if (!engine.handle(line)) break;
  }
  engine.handle("stop");
  engine.finish();
  return 0;
}
