// The programs' help, through the real binaries.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/tools/run_binary.h"

namespace ataxx {
namespace {

// A default shown outside its own range (`INT in [1 - 1024]=0`) tells the user a value they may
// not give: where no value is the default, none is shown.
TEST(Help, EveryNumbersDefaultShownIsInItsRange) {
  const std::regex ranged(R"(in \[(-?[0-9.e+]+) - (-?[0-9.e+]+)\]=(-?[0-9.e+]+)\b)");
  for (const std::string& program : {std::string(ATAXX_ZERO_BINARY), std::string(ATAXX_ENGINE_BINARY)}) {
    // --help-all, then the commands within a command (bench's), which it lists without their options.
    const bool benches = program == ATAXX_ZERO_BINARY;
    const Ran help = run_shell(
        program + " --help-all" +
        (benches ? " && for b in perft mcts nn selfplay train uai; do " + program + " bench $b --help || exit 1; done"
                 : std::string()));
    ASSERT_EQ(help.status, 0) << help.output;
    int ranges = 0;
    for (auto it = std::sregex_iterator(help.output.begin(), help.output.end(), ranged); it != std::sregex_iterator();
         ++it, ++ranges) {
      const double low = std::stod((*it)[1]), high = std::stod((*it)[2]), shown = std::stod((*it)[3]);
      EXPECT_TRUE(shown >= low && shown <= high) << program << ": " << (*it)[0];
    }
    EXPECT_GT(ranges, 8) << program << " --help-all: " << help.output;  // every command's, the nested ones too
  }
}

}  // namespace
}  // namespace ataxx
