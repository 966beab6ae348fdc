#include "server/run_view.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "config/run_config.h"
#include "games/registry.h"
#include "selfplay/training_data.h"
#include "util/text.h"

namespace ataxx::server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::array<std::string_view, 5> kTables = {"metrics", "ratings", "gating", "matches", "selfplay"};
constexpr std::uintmax_t kMaxTableBytes = 16 << 20;
constexpr std::uintmax_t kMaxTailBytes = 64 << 10;
constexpr std::uintmax_t kMaxLiveBytes = 1 << 20;

// Whole lines of a file (a line still being appended is left out), and the byte at which the
// first of them starts.
struct FileLines {
  std::vector<std::string> lines;
  std::uintmax_t first_line_at = 0;
};

// The lines from `from_end` bytes before the file's end (0: from its start), at most `limit` bytes
// of them.
FileLines whole_lines(const fs::path& path, std::uintmax_t from_end, std::uintmax_t limit) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (error) return {};
  const std::uintmax_t start = from_end && size > from_end ? size - from_end : 0;
  // From the byte before `start`: a line starts at `start` only where that byte ends one.
  const std::uintmax_t read_from = start > 0 ? start - 1 : 0;
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(read_from));
  std::string text(std::min(size - start, limit) + (start - read_from), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  FileLines out;
  out.first_line_at = read_from;
  std::size_t skip = 0;
  if (start > 0) {  // up to and with the first newline: the byte before, or a line cut at its start
    skip = text.find('\n');
    if (skip == std::string::npos) return {};
    ++skip;
    out.first_line_at = read_from + skip;
  }
  const std::size_t end = text.find_last_of('\n');
  if (end == std::string::npos || end < skip) return {};
  out.lines = split(std::string_view(text).substr(skip, end + 1 - skip), '\n');
  if (!out.lines.empty() && out.lines.back().empty()) out.lines.pop_back();
  return out;
}

json cell_value(const std::string& field) {
  if (const auto number = parse_number(field)) return *number;
  return field;
}

double seconds_since_write(const fs::path& path) {
  std::error_code error;
  const auto written = fs::last_write_time(path, error);
  if (error) return 0;
  return std::chrono::duration<double>(fs::file_time_type::clock::now() - written).count();
}

// A chunk's samples cut into games where they start, each position once: self-play writes a
// surprising sample more than once, one copy after the other.
template <typename G>
std::vector<std::vector<BasicTrainingSample<G>>> games_of(std::vector<BasicTrainingSample<G>> samples) {
  std::vector<std::vector<BasicTrainingSample<G>>> games;
  for (auto& sample : samples) {
    if (sample.starts_game || games.empty())
      games.emplace_back();
    else if (games.back().back().position == sample.position)
      continue;
    games.back().push_back(std::move(sample));
  }
  return games;
}

template <typename G>
json game_json(const std::string& path, int index) {
  auto games = games_of<G>(read_chunk<G>(path));
  if (index < 0 || index >= static_cast<int>(games.size()))
    throw std::invalid_argument("the chunk holds " + std::to_string(games.size()) + " games");
  json fens = json::array(), searched = json::array();
  for (const auto& sample : games[index]) {
    fens.push_back(sample.position.fen());
    json visits = json::array();
    for (const auto& [move, count] : sample.visits) visits.push_back({G::move_text(move, sample.position), count});
    searched.push_back(visits);
  }
  const std::string variant = G::pgn_variant(games[index].front().position);
  return {{"game", variant.empty() ? G::kName : variant}, {"games", games.size()}, {"fens", fens}, {"searched", searched}};
}

}  // namespace

RunView::RunView(std::string root) : root_(std::move(root)) {
  if (!fs::is_regular_file(root_ + "/config.yaml"))
    throw std::invalid_argument("'" + root_ + "' is not a run's directory (no config.yaml)");
}

json RunView::summary() const {
  json out = {{"name", fs::path(root_).lexically_normal().filename().string()}};
  try {
    out["game"] = load_run_config(root_ + "/config.yaml").run.game;
  } catch (const std::exception& e) {
    out["game"] = nullptr;
    out["config_error"] = e.what();
  }
  const auto first_line = [&](const char* name) -> json {
    const auto lines = whole_lines(root_ + "/" + name, 0, 4096).lines;
    return lines.empty() ? json(nullptr) : json(lines.front());
  };
  out["best"] = first_line("models/best");
  const json elapsed = first_line("elapsed_minutes");
  out["elapsed_minutes"] = elapsed.is_string() ? cell_value(elapsed.get<std::string>()) : json(nullptr);
  out["tables"] = json::array();
  for (const auto name : kTables)
    if (fs::exists(root_ + "/" + std::string(name) + ".csv")) out["tables"].push_back(name);
  return out;
}

std::optional<json> RunView::table(std::string_view name) const {
  if (std::find(kTables.begin(), kTables.end(), name) == kTables.end()) return std::nullopt;
  const fs::path path = root_ + "/" + std::string(name) + ".csv";
  json out = {{"columns", json::array()}, {"rows", json::array()}, {"older_rows_left_out", false}};
  const auto header = whole_lines(path, 0, 4096).lines;
  if (header.empty()) return out;
  const auto columns = split(header.front(), ',');
  out["columns"] = columns;
  // A long run's table: its newest rows, up to kMaxTableBytes.
  const FileLines part = whole_lines(path, kMaxTableBytes, kMaxTableBytes);
  const bool from_header = part.first_line_at == 0;
  out["older_rows_left_out"] = part.first_line_at > header.front().size() + 1;
  const auto& lines = part.lines;
  for (std::size_t i = from_header ? 1 : 0; i < lines.size(); ++i) {
    const auto fields = split(lines[i], ',');
    if (fields.size() != columns.size()) continue;  // a row of another layout
    json row = json::array();
    for (const auto& field : fields) row.push_back(cell_value(field));
    out["rows"].push_back(std::move(row));
  }
  return out;
}

json RunView::log_tail(int lines) const {
  auto all = whole_lines(root_ + "/log.txt", kMaxTailBytes, kMaxTailBytes).lines;
  const std::size_t keep = std::min<std::size_t>(all.size(), static_cast<std::size_t>(std::max(lines, 0)));
  return json{{"lines", std::vector<std::string>(all.end() - static_cast<std::ptrdiff_t>(keep), all.end())}};
}

json RunView::chunks(int count) const {
  std::vector<std::pair<fs::file_time_type, fs::path>> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root_ + "/games", error))
    if (entry.is_regular_file(error) && entry.path().extension() == ".zst")
      found.emplace_back(entry.last_write_time(error), entry.path());
  const std::size_t keep = std::min<std::size_t>(found.size(), static_cast<std::size_t>(std::max(count, 0)));
  std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep), found.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  json list = json::array();
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < keep; ++i) {
    const std::string name = found[i].second.filename().string();
    auto cached = chunk_counts_.find(name);
    if (cached == chunk_counts_.end()) {
      json entry = nullptr;  // damaged or cut short: not offered
      try {
        const ChunkCounts counts = chunk_counts(found[i].second.string());
        entry = {{"name", name}, {"games", counts.games}, {"samples", counts.samples}};
      } catch (const std::exception&) {
      }
      cached = chunk_counts_.emplace(name, entry).first;
    }
    if (!cached->second.is_null()) list.push_back(cached->second);
  }
  return list;
}

json RunView::chunk_game(std::string_view name, int index) const {
  // Only a plain file name of games/ ending in .zst: no separator, no leading dot.
  if (name.empty() || name.find('/') != std::string_view::npos || name.starts_with(".") || !name.ends_with(".zst"))
    throw std::invalid_argument("'" + std::string(name) + "' is not a chunk of this run");
  const std::string path = root_ + "/games/" + std::string(name);
  if (!fs::is_regular_file(path)) throw std::invalid_argument("'" + std::string(name) + "' is not a chunk of this run");
  return Games::with_game_named(chunk_counts(path).game, [&]<typename G>() { return game_json<G>(path, index); });
}

json RunView::live_game() const {
  std::error_code error;
  fs::path newest;
  fs::file_time_type newest_time{};
  for (const auto& entry : fs::directory_iterator(root_ + "/live", error)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".txt") continue;
    const auto time = entry.last_write_time(error);
    if (!error && (newest.empty() || time > newest_time)) newest = entry.path(), newest_time = time;
  }
  if (newest.empty()) return nullptr;
  // game, start FEN, model, moves: one line each (trainer/live_game.h writes them).
  const auto lines = whole_lines(newest, 0, kMaxLiveBytes).lines;
  if (lines.size() < 4) return nullptr;
  // The game is played under the run's rules, which may end it later or sooner than the defaults.
  const RuleSettings rules = load_run_config(root_ + "/config.yaml").rules;
  return {{"game", lines[0]},
          {"start_fen", lines[1]},
          {"model", lines[2]},
          {"moves", split_words(lines[3])},
          {"rules", {{"halfmove_limit", rules.halfmove_limit}, {"repetition_limit", rules.repetition_limit}}},
          {"age_seconds", seconds_since_write(newest)}};
}

}  // namespace ataxx::server
