// The CPU time a control group allows this process (docker's --cpus, systemd's CPUQuota=), as
// Go's and the JVM's runtimes read it: a quota of 1.5 cores on a 16-core machine runs 2 threads
// at full speed, not 16.
#pragma once

#include <optional>
#include <string>

namespace ataxx {

// The cores the quotas of this process's cgroup and its parents allow (the smallest, rounded up),
// read from proc/self/{cgroup,mountinfo} and the cgroup file systems under `root` ("/" but in
// tests): cgroup v2's cpu.max, or v1's cpu.cfs_quota_us over cpu.cfs_period_us. None where no
// quota is set or the files cannot be read.
std::optional<int> cgroup_cpu_limit(const std::string& root = "/");

}  // namespace ataxx
