// The newest training samples, in a window that grows with the data (KataGo's power law):
// window = min_window * (1 + b * ((total / min_window)^a - 1) / a), capped at max_window, with
// a the window exponent and b = 0.4. Chunks are loaded once and kept in memory; what a refresh
// costs follows the window, not the run's age: chunks older than max_window samples are
// counted from their headers and never read, and games/ is listed again only when it changed.
// A packed run (trainer/run_pack.h) holds only the chunks of its window; games/counted-only.txt
// then counts the samples and games of those it left behind.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/run_config.h"
#include "nn/game_encoder.h"
#include "selfplay/training_data.h"

namespace ataxx {

// Chunks counted into a run's totals whose files are not in its games/ (left out of a pack).
struct CountedOnly {
  std::int64_t chunks = 0;
  std::int64_t samples = 0;
  std::int64_t games = 0;
  static constexpr const char* kFileName = "counted-only.txt";
  static CountedOnly read(const std::string& games_dir);  // zeros when the file is not there
  void write(const std::string& games_dir) const;
};

template <typename G>
class BasicReplayBuffer {
 public:
  using Sample = BasicTrainingSample<G>;
  struct Refresh {
    std::int64_t samples = 0;           // added (counted, for chunks too old to be read)
    std::int64_t games = 0;             // in the chunks added
    std::vector<std::string> skipped;   // why each damaged chunk was left out
    std::vector<std::string> left_out;  // chunks of another game, or with samples of boards the run does not train
  };

  // Holds samples of G that the encoder's network plays only.
  explicit BasicReplayBuffer(const RunConfig::Training& config, GameEncoder<G> encoder = GameEncoder<G>())
      : config_(config), encoder_(std::move(encoder)) {}
  // Takes every chunk in games_dir not seen yet, in natural_less order of their names. A chunk
  // that fails its checks is skipped (and not tried again); the run goes on without it.
  Refresh refresh(const std::string& games_dir);
  std::int64_t skipped_chunks() const { return skipped_; }
  std::int64_t total_samples() const { return total_; }
  std::int64_t total_games() const { return games_; }
  std::int64_t held_samples() const { return held_; }
  std::int64_t window() const;
  // No sample to draw: also where a packed run's games are all counted-only, none held.
  bool empty() const { return held_ == 0; }
  // The training steps that `reuse` samples trained per sample played come to: none before
  // t.min_samples are played, and none while the buffer is empty.
  std::int64_t steps_for_reuse(double reuse, const RunConfig::Training& t) const {
    return empty() || total_ < t.min_samples ? 0 : static_cast<std::int64_t>(total_ * reuse / t.batch_size);
  }
  const GameEncoder<G>& encoder() const { return encoder_; }  // of the positions it holds
  // A sample drawn uniformly from the window.
  const Sample& sample(std::mt19937_64& rng) const;
  // The names of the newest chunks, newest first, that hold the window: with `counted_only()`
  // what a resume needs to draw the same samples.
  std::vector<std::string> window_chunks() const;
  // The run's totals less the samples and games of `chunks` (names of chunks held).
  CountedOnly counted_only(const std::vector<std::string>& chunks) const;

 private:
  struct Chunk {
    std::string name;
    std::int64_t games = 0;
    std::vector<Sample> samples;
  };
  // Reads one chunk into `into`, keeping the samples the run's network plays.
  void read(const std::string& path, std::vector<Sample>& into, Refresh& report);
  bool listing_changed(const std::string& games_dir);

  RunConfig::Training config_;
  GameEncoder<G> encoder_;
  std::deque<Chunk> chunks_;  // newest last; old ones dropped past max_window
  std::unordered_set<std::string> seen_;            // names already taken
  std::filesystem::file_time_type listed_at_{};     // games/'s modification time when last listed
  std::int64_t total_ = 0;                          // samples ever added
  std::int64_t games_ = 0;                          // games ever added
  std::int64_t chunks_counted_ = 0;                 // chunks whose samples count in total_
  std::int64_t held_ = 0;                           // samples in chunks_
  std::int64_t skipped_ = 0;                        // damaged chunks left out
};
using ReplayBuffer = BasicReplayBuffer<DefaultGame>;

// The boards the run's network learns (of a game with boards; others ignore them).
BoardSet boards_of(const RunConfig& config);
// A run's buffer: its training settings, and the boards it trains.
template <typename G>
BasicReplayBuffer<G> run_replay_buffer(const RunConfig& config);

}  // namespace ataxx
