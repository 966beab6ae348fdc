#include "util/cpu_limit.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "util/temporary_directory.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

// A stand-in for the machine's root: proc/self/{cgroup,mountinfo} and the cgroup file system.
class FakeRoot {
 public:
  void write(const std::string& path, const std::string& text) {
    const fs::path file = fs::path(dir_.path()) / path;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
  // cgroup v2 alone, the process in `cgroup`, the hierarchy's root mounted at /sys/fs/cgroup.
  void unified(const std::string& cgroup, const std::string& mount_root = "/") {
    write("proc/self/cgroup", "0::" + cgroup + "\n");
    write("proc/self/mountinfo",
          "22 1 0:20 / /sys rw,nosuid - sysfs sysfs rw\n"
          "30 22 0:26 " +
              mount_root + " /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate\n");
  }
  std::optional<int> limit() const { return cgroup_cpu_limit(dir_.path()); }

 private:
  TemporaryDirectory dir_{"ataxx-cpu-limit-test"};
};

TEST(CgroupCpuLimit, ReadsAVersion2QuotaRoundedUp) {
  FakeRoot root;
  root.unified("/system.slice/run.service");
  root.write("sys/fs/cgroup/system.slice/run.service/cpu.max", "150000 100000\n");
  EXPECT_EQ(root.limit(), 2);
  root.write("sys/fs/cgroup/system.slice/run.service/cpu.max", "400000 100000\n");
  EXPECT_EQ(root.limit(), 4);
  root.write("sys/fs/cgroup/system.slice/run.service/cpu.max", "20000 100000\n");
  EXPECT_EQ(root.limit(), 1);
}

TEST(CgroupCpuLimit, ACgroupPathMayHoldColons) {
  FakeRoot root;
  root.unified("/machine.slice/vm:1");
  root.write("sys/fs/cgroup/machine.slice/vm:1/cpu.max", "300000 100000\n");
  EXPECT_EQ(root.limit(), 3);
}

TEST(CgroupCpuLimit, NoneWhereNoQuotaIsSet) {
  FakeRoot root;
  root.unified("/user.slice");
  EXPECT_EQ(root.limit(), std::nullopt);  // no cpu.max anywhere
  root.write("sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
  EXPECT_EQ(root.limit(), std::nullopt);
}

TEST(CgroupCpuLimit, TheSmallestQuotaOnThePathBinds) {
  FakeRoot root;
  root.unified("/a/b/c");
  root.write("sys/fs/cgroup/a/cpu.max", "300000 100000\n");
  root.write("sys/fs/cgroup/a/b/c/cpu.max", "max 100000\n");
  EXPECT_EQ(root.limit(), 3);
  root.write("sys/fs/cgroup/a/b/cpu.max", "100000 100000\n");
  EXPECT_EQ(root.limit(), 1);
  root.write("sys/fs/cgroup/cpu.max", "50000 100000\n");  // the mount's own cgroup counts too
  EXPECT_EQ(root.limit(), 1);
}

TEST(CgroupCpuLimit, InsideAContainerTheMountShowsTheContainersOwnCgroup) {
  // A container sees its own cgroup at /sys/fs/cgroup; /proc/self/cgroup names it from the host's
  // root (no cgroup namespace) or as "/" (its own namespace, where the mount's root lies outside).
  FakeRoot root;
  root.unified("/docker/f00d", "/docker/f00d");
  root.write("sys/fs/cgroup/cpu.max", "200000 100000\n");
  EXPECT_EQ(root.limit(), 2);
  root.unified("/", "/docker/f00d");
  EXPECT_EQ(root.limit(), 2);
}

TEST(CgroupCpuLimit, ReadsVersion1sCpuController) {
  FakeRoot root;
  root.write("proc/self/cgroup", "4:memory:/job\n3:cpu,cpuacct:/job\n0::/\n");
  root.write("proc/self/mountinfo",
             "30 22 0:27 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
             "31 30 0:28 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n"
             "32 30 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct\n"
             "40 30 0:37 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n");
  root.write("sys/fs/cgroup/cpu,cpuacct/job/cpu.cfs_period_us", "100000\n");
  root.write("sys/fs/cgroup/cpu,cpuacct/job/cpu.cfs_quota_us", "-1\n");
  EXPECT_EQ(root.limit(), std::nullopt);
  root.write("sys/fs/cgroup/cpu,cpuacct/job/cpu.cfs_quota_us", "250000\n");
  EXPECT_EQ(root.limit(), 3);
}

TEST(CgroupCpuLimit, NoneWhereTheFilesCannotBeRead) {
  FakeRoot root;
  EXPECT_EQ(root.limit(), std::nullopt);
  root.write("proc/self/cgroup", "0::/x\n");
  EXPECT_EQ(root.limit(), std::nullopt);  // no mountinfo
  root.unified("/x");
  root.write("sys/fs/cgroup/x/cpu.max", "garbage\n");
  EXPECT_EQ(root.limit(), std::nullopt);
}

}  // namespace
}  // namespace ataxx
