#include "trainer/run_directory.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>

#include "selfplay/training_data.h"
#include "util/atomic_file.h"
#include "util/process.h"
#include "util/read_file.h"
#include "util/text.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

constexpr std::array<std::string_view, 5> kRunFolders = {"models", "checkpoints", "games", "plots", "live"};

std::optional<int> newest_generation(const std::string& dir, const std::string& extension) {
  std::optional<int> newest;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::optional<int> generation = generation_number(entry.path().filename().string());
    if (entry.path().extension() == extension && generation)
      newest = std::max(newest.value_or(*generation), *generation);
  }
  return newest;
}

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (std::exchange(header, false) || line.empty()) continue;
    rows.push_back(split(line, ','));
  }
  return rows;
}

// Text inside a gnuplot string in single quotes, where a quote is written twice.
std::string gnuplot_quoted(const std::string& text) {
  std::string quoted;
  for (const char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted;
}

// Player specs hold commas ("alphabeta:depth=2,time=100"): in a CSV cell they become ';'.
std::string csv_field(std::string text) {
  std::replace(text.begin(), text.end(), ',', ';');
  return text;
}

// A game count of a CSV the run wrote; a damaged one is an error naming the file.
int csv_count(const std::string& text, const std::string& file) {
  const std::optional<long long> count = parse_integer(text);
  if (!count || *count < 0 || *count > 1'000'000'000)
    throw std::runtime_error("'" + file + "' holds '" + text + "' where a number of games belongs");
  return static_cast<int>(*count);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  return text;
}

// A header that gained columns at its end (a run from before they existed) is rewritten to the
// new one; the old rows keep their fewer cells.
void append_csv(const std::string& path, const std::string& header, const std::string& row) {
  if (!fs::exists(path)) {
    append_line(path, header);
  } else if (const std::string old = read_text(path); old != header && header.starts_with(old + ",")) {
    write_file_atomically(path, header + read_whole_file(path).substr(old.size()));
  }
  append_line(path, row);
}

}  // namespace

std::string generation_name(int generation) { return fmt::format("gen-{:04d}", generation); }

std::optional<int> generation_number(std::string_view name) {
  constexpr std::string_view kPrefix = "gen-";
  int generation = 0;
  if (!name.starts_with(kPrefix)) return std::nullopt;
  const char* digits = name.data() + kPrefix.size();
  if (std::from_chars(digits, name.data() + name.size(), generation).ptr == digits) return std::nullopt;
  return generation;
}

RunDirectory::RunDirectory(std::string root) : root_(std::move(root)) {
  if (fs::exists(root_) && !fs::is_directory(root_))
    throw std::runtime_error("'" + root_ + "' is a file: a run directory is a folder");
  for (const std::string_view sub : kRunFolders) {
    const std::string folder = root_ + "/" + std::string(sub);
    if (std::error_code error; !fs::create_directories(folder, error) && error)
      throw std::runtime_error("cannot make the run's folder '" + folder + "': " + error.message());
  }
  remove_abandoned_temporaries();
}

bool RunDirectory::holds_run(const std::string& root) { return fs::exists(config_path_of(root)); }

bool RunDirectory::has_room_for_a_run(const std::string& root) {
  if (!fs::is_directory(root) || holds_run(root)) return true;
  // What a start that failed leaves, and what a folder holds of no one's work (a volume's lost+found).
  const auto no_ones_work = [](const fs::directory_entry& entry) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with('.') || name == "lost+found" || is_abandoned_temporary(name)) return true;
    if (entry.is_directory())
      return std::ranges::find(kRunFolders, name) != kRunFolders.end() && fs::is_empty(entry.path());
    return name == "train.lock";
  };
  return std::ranges::all_of(fs::directory_iterator(root), no_ones_work);
}

void RunDirectory::remove_abandoned_temporaries() const {
  for (const auto& entry : fs::recursive_directory_iterator(root_))
    if (entry.is_regular_file() && is_abandoned_temporary(entry.path().filename().string())) fs::remove(entry.path());
}

std::string RunDirectory::model_path(int generation) const { return model_path(generation_name(generation)); }
std::string RunDirectory::model_path(const std::string& name) const { return root_ + "/models/" + name + ".net"; }
std::string RunDirectory::checkpoint_path(int generation) const {
  return root_ + "/checkpoints/" + generation_name(generation) + ".ckpt";
}
std::optional<int> RunDirectory::newest_model_of(const std::string& root) {
  if (std::error_code error; !fs::is_directory(root + "/models", error)) return std::nullopt;
  return newest_generation(root + "/models", ".net");
}
std::optional<int> RunDirectory::newest_checkpoint() const {
  return newest_generation(root_ + "/checkpoints", ".ckpt");
}
std::string RunDirectory::best() const { return read_text(root_ + "/models/best"); }
void RunDirectory::set_best(const std::string& name) const { write_file_atomically(root_ + "/models/best", name + "\n"); }

std::string RunDirectory::new_chunk_path(const std::string& model) const {
  static const std::string writer = fmt::format("{}-{}-{:08x}", host_name(), ::getpid(), std::random_device{}());
  static std::atomic<int> next{0};
  return fmt::format("{}/{}-{}-{:05d}.zst", games_dir(), model.empty() ? "unknown" : model, writer, next++);
}

void RunDirectory::write_live_game(std::string_view game, const std::string& start_fen, const std::string& model,
                                   const std::string& moves) const {
  write_file_atomically(fmt::format("{}/live/{}-{}.txt", root_, host_name(), ::getpid()), fmt::format("{}\n{}\n{}\n{}\n", game, start_fen, model, moves));
}

void RunDirectory::record_selfplay(const SelfPlayRow& r) const {
  append_csv(root_ + "/selfplay.csv",
             "elapsed_minutes,games,games_per_second,evals_per_second,recent_plies_per_game,recent_draw_share",
             fmt::format("{:.3f},{},{:.3f},{:.0f},{:.1f},{:.4f}", r.run_minutes, r.games, r.games_per_second,
                         r.evals_per_second, r.plies_per_game, r.draw_share));
}

double RunDirectory::elapsed_minutes() const {
  const std::string text = read_text(root_ + "/elapsed_minutes");
  if (text.empty()) return 0.0;
  const std::optional<double> minutes = parse_number(text);
  if (!minutes || *minutes < 0)
    throw std::runtime_error("'" + root_ + "/elapsed_minutes' holds '" + text + "', not a number of minutes");
  return *minutes;
}
void RunDirectory::set_elapsed_minutes(double minutes) const {
  write_file_atomically(root_ + "/elapsed_minutes", std::to_string(minutes) + "\n");
}

std::optional<bool> RunDirectory::gating_verdict(const std::string& candidate) const {
  for (const auto& row : read_csv(root_ + "/gating.csv"))
    if (row.size() >= 7 && row[0] == candidate) return row[6] == "1";
  return std::nullopt;
}

int RunDirectory::newest_gated() const {
  int newest = 0;
  for (const auto& row : read_csv(root_ + "/gating.csv"))
    if (row.size() >= 7) newest = std::max(newest, generation_number(row[0]).value_or(0));
  return newest;
}

void RunDirectory::record_gating(const std::string& candidate, const std::string& best, const PairResult& r,
                                 bool promoted) const {
  const int games = r.first_wins + r.draws + r.second_wins;
  append_csv(root_ + "/gating.csv", "candidate,best,wins,draws,losses,score,promoted",
             fmt::format("{},{},{},{},{},{:.4f},{:d}", candidate, best, r.first_wins, r.draws, r.second_wins,
                         games ? (r.first_wins + 0.5 * r.draws) / games : 0.0, promoted));
}

bool RunDirectory::has_match(int generation, const std::string& first, const std::string& second,
                             const std::string& kind) const {
  const std::string number = std::to_string(generation);
  const std::string first_field = csv_field(first), second_field = csv_field(second);  // as record_match wrote them
  for (const auto& row : read_csv(root_ + "/matches.csv"))
    if (row.size() >= 7 && row[6] == kind && row[0] == number && row[1] == first_field && row[2] == second_field)
      return true;
  return false;
}

void RunDirectory::repair_gating() const {
  std::string promoted = generation_name(0);
  for (const auto& row : read_csv(root_ + "/gating.csv")) {
    if (row.size() < 7) continue;
    const int generation = generation_number(row[0]).value_or(0);
    const std::string file = root_ + "/gating.csv";
    const PairResult result{row[0], row[1], csv_count(row[2], file), csv_count(row[3], file), csv_count(row[4], file)};
    if (result.first_wins + result.draws + result.second_wins > 0 && !has_match(generation, row[0], row[1], "gating"))
      record_match(generation, result, "gating");
    if (row[6] == "1") promoted = row[0];
  }
  if (fs::exists(model_path(promoted)) && best() != promoted) set_best(promoted);
}

void RunDirectory::prune(int newest) const {
  std::error_code ignored;
  for (int g = newest - kCheckpointsKept; g >= 0 && fs::exists(checkpoint_path(g)); --g)
    fs::remove(checkpoint_path(g), ignored);
  const std::string current_best = best();
  // A candidate without a verdict is being gated (gating takes the newest) unless a newer one has
  // a verdict: then it was passed over. Gating may still be playing one older than the newest five.
  std::map<std::string, bool> verdicts;
  int newest_decided = 0;
  for (const auto& row : read_csv(root_ + "/gating.csv"))
    if (row.size() >= 7) {
      verdicts[row[0]] = row[6] == "1";
      newest_decided = std::max(newest_decided, generation_number(row[0]).value_or(0));
    }
  for (int g = newest - kCandidatesKept; g > 0; --g) {
    const std::string name = generation_name(g);
    if (!fs::exists(model_path(name))) break;  // pruned before, and everything older with it
    const auto verdict = verdicts.find(name);
    const bool promoted = verdict != verdicts.end() && verdict->second;
    const bool decided = verdict != verdicts.end() || g < newest_decided;
    if (name != current_best && !promoted && decided) fs::remove(model_path(name), ignored);
  }
}

void RunDirectory::record_match(int generation, const PairResult& r, const std::string& kind) const {
  append_csv(root_ + "/matches.csv", "generation,first,second,first_wins,draws,second_wins,kind",
             fmt::format("{},{},{},{},{},{},{}", generation, csv_field(r.first), csv_field(r.second), r.first_wins,
                         r.draws, r.second_wins, kind));
}

std::vector<PairResult> RunDirectory::matches() const {
  std::vector<PairResult> results;
  for (const auto& row : read_csv(root_ + "/matches.csv"))
    if (row.size() >= 6) {
      const std::string file = root_ + "/matches.csv";
      results.push_back({row[1], row[2], csv_count(row[3], file), csv_count(row[4], file), csv_count(row[5], file)});
    }
  return results;
}

void RunDirectory::record_metrics(const std::string& header, const std::string& row) const {
  append_csv(root_ + "/metrics.csv", header, row);
}

void RunDirectory::write_ratings(const std::vector<Rating>& ratings, const std::string& anchor) const {
  std::string text = "player,elo,error95,games\n";
  auto row = [](const Rating& r) { return fmt::format("{},{:.1f},{:.1f},{}\n", csv_field(r.name), r.elo, r.error95, r.games); };
  for (const Rating& r : ratings)
    if (r.name == anchor) text += row(r);
  for (const Rating& r : ratings)
    if (r.name != anchor) text += row(r);
  write_file_atomically(root_ + "/ratings.csv", text);
}

RunDirectory::PlotResult RunDirectory::plot() const {
  const std::string script = root_ + "/plots/plot.gp";
  // What every figure starts from (`reset` keeps the terminal, not these).
  constexpr std::string_view kFigureDefaults = "set datafile separator ','\nset grid\n";
  std::string text = std::string(kFigureDefaults) + R"(set terminal pngcairo size 900,500 noenhanced
set output 'plots/losses.png'
set title 'Training losses'
set xlabel 'training step'
plot 'metrics.csv' using 'step':'loss' with linespoints title 'total', \
     '' using 'step':'policy_loss' with linespoints title 'policy', \
     '' using 'step':'value_loss' with linespoints title 'value (WDL)', \
     '' using 'step':'ownership_loss' with linespoints title 'ownership'
)";
  // A run without gating or ladder games has no ratings to draw.
  const auto ratings = read_csv(root_ + "/ratings.csv");
  if (!ratings.empty()) text += fmt::format(R"(set key autotitle columnhead
set output 'plots/ratings.png'
set title 'Elo of each model ({} = 0), 95% error bars'
)", gnuplot_quoted(ratings.front().front())) + R"(set xlabel ''
set xtics rotate by 60 right font ',8'
set bmargin 6
set offsets 0.5, 0.5, 0, 0
set style data yerrorbars
plot 'ratings.csv' using 0:'elo':'error95':xtic(1) title 'elo' with yerrorbars pt 7
)";
  // Rows from before selfplay.csv had its recent games' columns have nothing to draw.
  const auto selfplay = read_csv(root_ + "/selfplay.csv");
  if (std::any_of(selfplay.begin(), selfplay.end(), [](const auto& row) { return row.size() >= 6; }))
    text += "reset\n" + std::string(kFigureDefaults) + R"(set output 'plots/selfplay.png'
set title 'Self-play: its recent games (each self-play process its own)'
set xlabel 'run minutes'
set ylabel 'plies a game'
set y2label 'draws (%)'
set yrange [0:*]
set y2range [0:100]
set y2tics
set ytics nomirror
set key below
plot 'selfplay.csv' using 'elapsed_minutes':'recent_plies_per_game' with points pt 7 ps 0.6 title 'plies a game', \
     '' using 'elapsed_minutes':(100 * column('recent_draw_share')) axes x1y2 with points pt 7 ps 0.6 title 'draws (%)'
)";
  write_file_atomically(script, text);
  fs::remove(root_ + "/plots/gnuplot.log");
  if (!on_path("gnuplot")) return PlotResult::kNoGnuplot;
  return run_and_wait({"gnuplot", "plots/plot.gp"}, root_, "plots/gnuplot.log") == 0 ? PlotResult::kDrawn
                                                                                       : PlotResult::kFailed;
}

}  // namespace ataxx
