#include "trainer/run_pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "config/run_config.h"
#include "players/player.h"
#include "trainer/run_directory.h"
#include "util/file_lock.h"
#include "util/paths.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

// A pack is copied into INTO.partial, marked as the pack's own, and renamed when whole: a pack that
// was stopped leaves a marked folder, which the next one removes; any other folder there is not
// the pack's to remove.
constexpr const char* kPartialMark = "PACK-IN-PROGRESS";

void clear_partial(const std::string& partial) {
  if (!fs::exists(fs::symlink_status(partial))) return;
  if (!fs::is_directory(fs::symlink_status(partial)) || !fs::exists(partial + "/" + kPartialMark))
    throw std::runtime_error("'" + partial + "' is there and was not left by a pack: move it away first");
  fs::remove_all(partial);
}

// Paths relative to the run's root.
struct PackList {
  std::vector<std::string> files;   // state other than games
  std::vector<std::string> chunks;  // games/NAME of the window, newest first
};

// The top-level state (config, CSVs, minutes, log), the best play file, a candidate without a
// verdict, and the checkpoints a resume starts from.
std::vector<std::string> state_files(const RunDirectory& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir.root())) {
    const std::string name = entry.path().filename();
    if (entry.is_regular_file() && entry.path() != fs::path(dir.lock_path()) && name.find(".tmp.") == std::string::npos)
      files.push_back(name);
  }
  const auto add_if_there = [&](const std::string& path) {
    if (fs::exists(path)) files.push_back(fs::relative(path, dir.root()));
  };
  add_if_there(dir.root() + "/models/best");
  add_if_there(dir.model_path(dir.best()));
  if (const auto newest = dir.newest_model(); newest && !dir.gating_verdict(generation_name(*newest)))
    add_if_there(dir.model_path(*newest));
  if (const auto checkpoint = dir.newest_checkpoint()) add_if_there(dir.checkpoint_path(*checkpoint));
  add_if_there(dir.stopped_checkpoint_path());
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());  // the best may be the newest
  return files;
}

// The files a config names that a resume reads, each "KEY: PATH"; the nets built into the program left out.
std::vector<std::string> files_named(const RunConfig& config) {
  std::vector<std::string> named;
  const auto add = [&](const std::string& key, const std::string& path) {
    if (!path.empty() && !path.starts_with("built-in:")) named.push_back(key + ": " + path);
  };
  for (const std::string& openings : config.boards.openings) add("boards.openings", openings);
  add("network.init_from", config.network.init_from);
  add("training.teacher", config.training.teacher);
  for (const std::string& baseline : config.ladder.baselines)
    if (PlayerSpec spec(baseline); spec.has("model")) add("ladder.baselines", spec.get_string("model", ""));
  return named;
}

constexpr std::int64_t kTallyMaxBytes = 96;  // games/counted-only.txt: three counts of at most 19 digits

std::int64_t size_of(const RunDirectory& dir, const std::string& relative) {
  return static_cast<std::int64_t>(fs::file_size(dir.root() + "/" + relative));
}

template <typename G>
PackReport pack(const RunConfig& config, const RunDirectory& dir, const std::string& into, std::int64_t max_bytes) {
  BasicReplayBuffer<G> buffer = run_replay_buffer<G>(config);
  buffer.refresh(dir.games_dir());
  PackReport report;
  report.named_files = files_named(config);
  report.window = buffer.window();
  PackList list{state_files(dir), {}};
  for (const std::string& file : list.files) report.bytes += size_of(dir, file);
  const std::int64_t asked = max_bytes;
  max_bytes -= kTallyMaxBytes;
  if (report.bytes > max_bytes)
    throw std::runtime_error(
        fmt::format("the state of run '{}' takes {:.6g} MiB without any games, more than the {:.6g} "
                    "MiB allowed",
                    dir.root(), report.bytes / 1048576.0, asked / 1048576.0));
  std::vector<std::string> window_chunks = buffer.window_chunks();
  for (const std::string& name : window_chunks) {
    const std::string chunk = "games/" + name;
    if (report.bytes + size_of(dir, chunk) > max_bytes) break;  // the oldest of the window stay behind
    report.bytes += size_of(dir, chunk);
    list.chunks.push_back(chunk);
  }
  window_chunks.resize(list.chunks.size());
  report.counted_only = buffer.counted_only(window_chunks);
  report.window_chunks = static_cast<std::int64_t>(list.chunks.size());
  report.window_samples_lost = std::max<std::int64_t>(0, report.window - (buffer.total_samples() - report.counted_only.samples));

  const std::string partial = into + ".partial";
  clear_partial(partial);
  fs::create_directories(partial);
  std::ofstream(partial + "/" + kPartialMark) << "a pack in progress: removed by the next pack into the same folder\n";
  for (const auto& files : {list.files, list.chunks}) {
    for (const std::string& file : files) {
      fs::create_directories(fs::path(partial + "/" + file).parent_path());
      fs::copy_file(dir.root() + "/" + file, partial + "/" + file);
    }
  }
  fs::create_directories(partial + "/games");
  report.counted_only.write(partial + "/games");
  report.files = static_cast<int>(list.files.size() + list.chunks.size()) + 1;
  report.bytes += static_cast<std::int64_t>(fs::file_size(partial + "/games/" + CountedOnly::kFileName));
  fs::remove(partial + "/" + kPartialMark);
  fs::rename(partial, into);
  return report;
}

}  // namespace

PackReport pack_run(const std::string& run_dir, const std::string& into_given, std::int64_t max_bytes) {
  fs::path normal = fs::path(into_given).lexically_normal();
  if (!normal.has_filename()) normal = normal.parent_path();  // "pack/": the folder, not one inside it
  const std::string into = normal.string();
  if (!RunDirectory::holds_run(run_dir)) throw std::runtime_error("'" + run_dir + "' holds no run (no config.yaml)");
  if (fs::exists(into)) throw std::runtime_error("'" + into + "' exists: a pack goes into a new folder");
  if (is_inside(into, run_dir))
    throw std::runtime_error("'" + into + "' is inside the run '" + run_dir + "': a pack goes outside it");
  const RunDirectory dir(run_dir);
  const FileLock no_trainer(dir.lock_path(), "run '" + dir.root() + "' (stop its train process before packing it)");
  dir.repair_gating();  // as a resume would: a promotion a kill left unwritten names the best to pack
  const RunConfig config = load_run_config(dir.config_path());
  return with_game(config.run.game, [&]<typename G>() { return pack<G>(config, dir, into, max_bytes); });
}

}  // namespace ataxx
