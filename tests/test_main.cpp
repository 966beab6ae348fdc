// The main of every test suite: gtest's, with a temporary folder of the process's own as
// testing::TempDir(), so that the tests ctest runs at once (each in its own process) never write
// the same file. It is removed at the end.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  std::string folder = (std::filesystem::temp_directory_path() / "ataxx-test-XXXXXX").string();
  if (!mkdtemp(folder.data())) {
    std::perror("test_main: mkdtemp");
    return 1;
  }
  setenv("TEST_TMPDIR", folder.c_str(), 1);
  testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  return result;
}
