// The layout of a training run on disk. Every piece of state is a file written atomically (or a
// CSV line appended in one write), and the state of the loop is read back from which files
// exist, so `train` resumes wherever a kill left it.
//
//   config.yaml                      the effective configuration
//   models/gen-NNNN.net, models/best play files (promoted ones and the newest 5 are kept); the best's name
//   checkpoints/gen-NNNN.ckpt        trainer state after producing gen-NNNN (the newest 3 are kept)
//   checkpoints/stopped.ckpt         trainer state where a session stopped between two candidates
//   games/MODEL-HOST-PID-TOKEN-C.zst self-play chunks, named after the best model when written
//   matches.csv, gating.csv          every rated game result; each candidate's gating verdict
//   metrics.csv, ratings.csv         per-generation figures; the current ratings table
//   selfplay.csv                     each self-play process's throughput and recent games, a row per chunk
//   live/HOST-PID.txt                the game a self-play process is playing now (for `serve`)
//   elapsed_minutes, log.txt, plots/ wall time over all sessions; the log; PNG plots
//   train.lock                       flock()ed by the run's one `train` process while it runs
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/ratings.h"

namespace ataxx {

std::string generation_name(int generation);  // "gen-0007"
// The number a name starting "gen-N" holds (7 for "gen-0007" and "gen-0007.net"), or nothing.
std::optional<int> generation_number(std::string_view name);

// How often a run's processes look again at its files while they wait (a model, chunks, a stop).
inline constexpr auto kRunPollInterval = std::chrono::milliseconds(100);

class RunDirectory {
 public:
  explicit RunDirectory(std::string root);  // creates the folders
  // Whether `root` holds a run (its config.yaml): to ask before a RunDirectory creates folders there.
  static bool holds_run(const std::string& root);
  // Whether a new run may start at `root`: nothing is there, or a run, or only what a start that
  // failed leaves (the empty folders and the lock file; hidden files and lost+found aside). Another
  // folder's files would be mixed with the run's, its own log.txt appended to.
  static bool has_room_for_a_run(const std::string& root);
  const std::string& root() const { return root_; }
  std::string config_path() const { return config_path_of(root_); }
  std::string model_path(int generation) const;
  std::string model_path(const std::string& name) const;  // name: "gen-0007"
  std::string checkpoint_path(int generation) const;
  std::string stopped_checkpoint_path() const { return root_ + "/checkpoints/stopped.ckpt"; }
  std::string games_dir() const { return root_ + "/games"; }
  std::string log_path() const { return root_ + "/log.txt"; }
  std::string lock_path() const { return lock_path_of(root_); }
  static std::string lock_path_of(const std::string& root) { return root + "/train.lock"; }

  // The highest generation with a play file, or nothing for a new run.
  std::optional<int> newest_model() const { return newest_model_of(root_); }
  // The same of the run at root, its folders not made: nothing where there are none.
  static std::optional<int> newest_model_of(const std::string& root);
  std::optional<int> newest_checkpoint() const;
  std::string best() const;  // "" before the first model
  void set_best(const std::string& name) const;
  // A path no writer has used or will use: host, process, a random token and a counter.
  std::string new_chunk_path(const std::string& model) const;
  // This process's live game: its game's name (the variant's, for a game with variants), start FEN,
  // model and moves, a line each.
  void write_live_game(std::string_view game, const std::string& start_fen, const std::string& model,
                       const std::string& moves) const;
  // A row of selfplay.csv: the run's minutes, the session's games, games/s and evals/s so far,
  // and the plies a game and share of draws of its recent games (selfplay/recent_games.h).
  struct SelfPlayRow {
    double run_minutes = 0;
    std::int64_t games = 0;
    double games_per_second = 0, evals_per_second = 0;
    double plies_per_game = 0, draw_share = 0;
  };
  void record_selfplay(const SelfPlayRow& row) const;

  double elapsed_minutes() const;
  void set_elapsed_minutes(double minutes) const;

  // What a long run no longer needs once `newest` is exported: checkpoints but the newest
  // kCheckpointsKept, and the play files of candidates older than the newest kCandidatesKept that
  // were never promoted. Every promoted net, gen-0000, the best and a candidate still being gated
  // (no verdict, none newer decided) stay.
  static constexpr int kCheckpointsKept = 3;
  static constexpr int kCandidatesKept = 5;
  void prune(int newest) const;

  // Gating verdicts: whether `candidate` has one, and whether it was promoted.
  std::optional<bool> gating_verdict(const std::string& candidate) const;
  // The newest candidate with a verdict (0 where none has one): every older one was gated or
  // passed over.
  int newest_gated() const;
  // A verdict is one line of gating.csv, written before what follows from it (its match in
  // matches.csv, the promotion); repair_gating() writes those where a kill came between.
  void record_gating(const std::string& candidate, const std::string& best, const PairResult& result,
                     bool promoted) const;
  void repair_gating() const;
  // Whether matches.csv holds that match (a ladder's baselines are played one by one).
  bool has_match(int generation, const std::string& first, const std::string& second, const std::string& kind) const;
  void record_match(int generation, const PairResult& result, const std::string& kind) const;
  std::vector<PairResult> matches() const;
  void record_metrics(const std::string& header, const std::string& row) const;
  // ratings.csv, the anchor (the player rated 0) first.
  void write_ratings(const std::vector<Rating>& ratings, const std::string& anchor) const;
  enum class PlotResult { kDrawn, kFailed, kNoGnuplot };
  // Draws plots/losses.png and plots/ratings.png (titled with ratings.csv's anchor) with gnuplot.
  PlotResult plot() const;

 private:
  static std::string config_path_of(const std::string& root) { return root + "/config.yaml"; }
  void remove_abandoned_temporaries() const;

  std::string root_;
};

}  // namespace ataxx
