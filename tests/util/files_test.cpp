#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "util/atomic_file.h"
#include "util/file_lock.h"
#include "util/paths.h"
#include "util/process.h"
#include "util/read_file.h"
#include "util/temporary_directory.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

// A pid no process has: a child that has already been reaped.
pid_t dead_pid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  return pid;
}

TEST(AtomicFile, WritesWholeFilesAndLeavesNoTemporary) {
  const std::string dir = testing::TempDir() + "/atomic";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_file_atomically(dir + "/a.txt", "first");
  write_file_atomically(dir + "/a.txt", "second");
  append_line(dir + "/b.csv", "x,y");
  append_line(dir + "/b.csv", "1,2");
  EXPECT_EQ(read_whole_file(dir + "/a.txt"), "second");
  EXPECT_EQ(read_whole_file(dir + "/b.csv"), "x,y\n1,2\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
  try {
    write_file_atomically(dir + "/no/such/folder/c.txt", "x");
    ADD_FAILURE() << "wrote into a folder that is not there";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '" + dir + "/no/such/folder/c.txt': No such file or directory");
  }
}

TEST(AtomicFile, OnlyThisHostsDeadWritersAreAbandoned) {
  const std::string host = host_name();
  const std::string dead = std::to_string(dead_pid());
  EXPECT_TRUE(is_abandoned_temporary("gen-0001.net.tmp." + host + "." + dead));
  EXPECT_FALSE(is_abandoned_temporary("gen-0001.net.tmp." + host + "." + std::to_string(getpid())));  // alive
  // Another machine sharing the run directory: its writer cannot be checked from here.
  EXPECT_FALSE(is_abandoned_temporary("gen-0001.net.tmp.other-" + host + "." + dead));
  EXPECT_FALSE(is_abandoned_temporary("gen-0001.net.tmp." + dead));  // no host: not ours to judge
  EXPECT_FALSE(is_abandoned_temporary("gen-0001.net"));
  EXPECT_FALSE(is_abandoned_temporary("gen-0001.net.tmp." + host + ".x"));
}

TEST(Process, RunsWithoutAShellInTheGivenFolder) {
  const std::string dir = testing::TempDir() + "/it's; a $(folder)";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Quotes, semicolons and $() reach the program as they are: no shell reads them.
  EXPECT_EQ(run_and_wait({"touch", "a'b; rm -rf c"}, dir, "log.txt"), 0);
  EXPECT_TRUE(fs::exists(dir + "/a'b; rm -rf c"));
  EXPECT_EQ(run_and_wait({"sh", "-c", "echo out; echo err >&2; exit 3"}, dir, "log.txt"), 3);
  EXPECT_EQ(read_whole_file(dir + "/log.txt"), "out\nerr\n");
  EXPECT_EQ(run_and_wait({"/no/such/program"}, dir, "log.txt"), -1);
}

TEST(Process, SpawnsWithPipes) {
  const ChildWithPipes child = spawn_with_pipes({"cat"});
  ASSERT_EQ(write(child.to_child, "ping\n", 5), 5);
  close(child.to_child);
  char buffer[16] = {};
  ssize_t got = 0;
  for (ssize_t n; (n = read(child.from_child, buffer + got, sizeof buffer - 1 - got)) > 0;) got += n;
  close(child.from_child);
  int status = 0;
  waitpid(child.pid, &status, 0);
  EXPECT_EQ(std::string(buffer, got), "ping\n");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_THROW(spawn_with_pipes({"/no/such/program"}), std::runtime_error);
}

TEST(FileLock, OneHolderAtATimeAndReleasedWithIt) {
  const std::string path = testing::TempDir() + "/file-lock-test.lock";
  {
    const FileLock first(path, "run 'a'");
    try {
      const FileLock second(path, "run 'a'");
      ADD_FAILURE() << "two holders";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("run 'a' is in use: another process holds '" + path + "'"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_NO_THROW(FileLock(path, "run 'a'"));  // the first one's end released it
  EXPECT_THROW(FileLock("/no/such/folder/x.lock", "run"), std::runtime_error);
}

TEST(TemporaryDirectory, IsNewPrivateAndRemovedWithEverythingInIt) {
  std::string path;
  {
    const TemporaryDirectory a("ataxx-zero-test"), b("ataxx-zero-test");
    path = a.path();
    EXPECT_NE(a.path(), b.path());
    EXPECT_TRUE(fs::path(a.path()).filename().string().starts_with("ataxx-zero-test-"));
    EXPECT_EQ(fs::status(a.path()).permissions(), fs::perms::owner_all);  // no one else can plant a link in it
    std::ofstream(a.path() + "/file") << "x";
  }
  EXPECT_FALSE(fs::exists(path));
}

// Within a folder by where things are, not by how their paths are written.
TEST(IsInside, ReadsPathsAsTheFilesystemDoes) {
  const std::filesystem::path root = std::filesystem::path(testing::TempDir()) / "is-inside";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "run" / "games");
  std::filesystem::create_symlink(root / "run", root / "link");
  EXPECT_TRUE(is_inside(root / "run", root / "run"));
  EXPECT_TRUE(is_inside(root / "run" / "new" / "file", root / "run"));  // need not exist
  EXPECT_TRUE(is_inside(root / "run" / "games" / ".." / "x", root / "run/"));
  EXPECT_TRUE(is_inside(root / "link" / "x", root / "run"));
  EXPECT_FALSE(is_inside(root / "run" / ".." / "x", root / "run"));
  EXPECT_FALSE(is_inside(root / "run-pack", root / "run"));
}

}  // namespace
}  // namespace ataxx
