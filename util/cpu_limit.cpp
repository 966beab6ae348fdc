#include "util/cpu_limit.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "util/text.h"

namespace ataxx {
namespace {

namespace fs = std::filesystem;

struct CgroupMount {
  fs::path mount_point;  // where the hierarchy is mounted
  std::string root;      // the cgroup seen at mount_point ("/" on a host, its own inside a container)
};

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool lists(const std::string& comma_list, const std::string& name) {
  const auto items = split(comma_list, ',');
  return std::find(items.begin(), items.end(), name) != items.end();
}

// The cgroup of the hierarchy with the cpu controller: v1's line that names `cpu`, else v2's
// `0::` line (`v2` says which).
std::optional<std::string> cpu_cgroup(const fs::path& proc_cgroup, bool& v2) {
  std::optional<std::string> unified;
  for (const auto& line : lines_of(proc_cgroup)) {  // ID:CONTROLLERS:PATH, and a path may hold ':'
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string id = line.substr(0, first), controllers = line.substr(first + 1, second - first - 1);
    if (lists(controllers, "cpu")) {
      v2 = false;
      return line.substr(second + 1);
    }
    if (id == "0" && controllers.empty()) unified = line.substr(second + 1);
  }
  v2 = true;
  return unified;
}

// mountinfo: ID PARENT MAJOR:MINOR ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS
std::optional<CgroupMount> cpu_mount(const fs::path& mountinfo, bool v2) {
  for (const auto& line : lines_of(mountinfo)) {
    const auto fields = split(line, ' ');
    const auto dash = std::find(fields.begin(), fields.end(), "-");
    if (std::distance(fields.begin(), dash) < 6 || std::distance(dash, fields.end()) < 4) continue;
    const std::string& type = dash[1];
    if (v2 ? type == "cgroup2" : type == "cgroup" && lists(dash[3], "cpu")) return CgroupMount{fields[4], fields[3]};
  }
  return std::nullopt;
}

std::vector<std::string> words_of(const fs::path& file) {
  std::ifstream in(file);
  return split_words(std::string(std::istreambuf_iterator<char>(in), {}));
}

// The cores one cgroup's own quota allows, or none ("max" in v2, -1 in v1, or no file).
std::optional<double> quota_in(const fs::path& directory, bool v2) {
  auto words = words_of(directory / (v2 ? "cpu.max" : "cpu.cfs_quota_us"));
  if (!v2) {
    const auto period = words_of(directory / "cpu.cfs_period_us");
    words.insert(words.end(), period.begin(), period.end());
  }
  if (words.size() != 2) return std::nullopt;
  const auto quota = parse_number(words[0]), period = parse_number(words[1]);
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
  return *quota / *period;
}

}  // namespace

std::optional<int> cgroup_cpu_limit(const std::string& root) {
  const fs::path base(root);
  bool v2 = false;
  const auto cgroup = cpu_cgroup(base / "proc/self/cgroup", v2);
  if (!cgroup) return std::nullopt;
  const auto mount = cpu_mount(base / "proc/self/mountinfo", v2);
  if (!mount) return std::nullopt;
  // The mount's cgroup and each one below it down to the process's (none where the process's lies
  // outside what the mount shows): the smallest quota binds.
  const fs::path relative = fs::path(*cgroup).lexically_relative(mount->root);
  const bool inside = !relative.empty() && *relative.begin() != "..";
  fs::path directory = base / mount->mount_point.relative_path();
  std::optional<double> cores = quota_in(directory, v2);
  for (const auto& part : inside ? relative : fs::path()) {
    if (part == ".") continue;
    directory /= part;
    if (const auto own = quota_in(directory, v2)) cores = std::min(cores.value_or(*own), *own);
  }
  if (!cores) return std::nullopt;
  return std::max(1, static_cast<int>(std::ceil(*cores)));
}

}  // namespace ataxx
