// The nets built into the programs are the files of nets/ as they are now: a net replaced there
// reaches the programs at the next build.
#include "nn/built_in_nets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "nn/model_container.h"
#include "tools/commands.h"

namespace ataxx {
namespace {

TEST(BuiltInNets, AreTheFilesOfNetsAsTheyAreNow) {
  cli::add_shipped_nets();
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(ATAXX_SOURCE_DIR) / "nets")) {
    if (entry.path().extension() != ".net") continue;
    ++files;
    const std::string name = entry.path().filename().string();
    const auto built_in = built_in_net(std::string(kBuiltInPrefix) + name);
    ASSERT_TRUE(built_in.has_value()) << name;
    EXPECT_TRUE(*built_in == read_model_file(entry.path().string()))
        << name << " is built in as it was at an earlier build";
  }
  EXPECT_GT(files, 0);
  EXPECT_EQ(built_in_nets().size(), static_cast<std::size_t>(files));
}

}  // namespace
}  // namespace ataxx
