// Worker threads whose failures end the work instead of the process.
#pragma once

#include <atomic>
#include <functional>

namespace ataxx {

// Runs body(0), ..., body(threads - 1) on their own threads and joins them all. When a body
// throws, on_error runs (once, so that the others can stop early) and the first exception is
// rethrown here after every thread has ended.
void run_in_parallel(int threads, const std::function<void(int)>& body, const std::function<void()>& on_error = {});

// The cores this process may run on, at least 1: its affinity (as taskset or a cpuset sets it;
// all the machine's where it cannot be read), or fewer where a cgroup's CPU quota allows less
// (docker --cpus, systemd's CPUQuota=; util/cpu_limit.h).
int usable_cores();

// Runs task on the calling thread and sets `stop` once `seconds` have passed (the task is to
// return soon after). If the task throws first, the timer ends at once and the exception reaches
// the caller.
void run_for(double seconds, std::atomic<bool>& stop, const std::function<void()>& task);

}  // namespace ataxx
