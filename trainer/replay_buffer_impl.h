// The template definitions of trainer/replay_buffer.h: included by replay_buffer.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "trainer/replay_buffer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <type_traits>

#include "util/atomic_file.h"
#include "util/text.h"

namespace ataxx {
namespace {

// A listing older than this is trusted while the folder's time stays the same: an entry added in
// the same tick of the file system's clock as an earlier listing could not move that time.
constexpr auto kClockTick = std::chrono::seconds(2);

}  // namespace

template <typename G>
bool BasicReplayBuffer<G>::listing_changed(const std::string& games_dir) {
  const auto modified = std::filesystem::last_write_time(games_dir);
  const bool settled = modified < std::filesystem::file_time_type::clock::now() - kClockTick;
  if (modified == listed_at_ && settled) return false;
  listed_at_ = settled ? modified : std::filesystem::file_time_type{};
  return true;
}

template <typename G>
void BasicReplayBuffer<G>::read(const std::string& path, std::vector<Sample>& into, Refresh& report) {
  std::vector<Sample> samples = read_chunk<G>(path);
  const std::size_t all = samples.size();
  std::erase_if(samples, [&](const Sample& s) { return !encoder_.plays(s.position); });
  if (samples.size() != all)
    report.left_out.push_back(path + ": " + std::to_string(all - samples.size()) + " of its " + std::to_string(all) +
                              " samples are of boards the run does not train (it trains " + encoder_.plays_what() + ")");
  into = std::move(samples);
}

template <typename G>
typename BasicReplayBuffer<G>::Refresh BasicReplayBuffer<G>::refresh(const std::string& games_dir) {
  Refresh report;
  if (!listing_changed(games_dir)) return report;
  if (seen_.insert(CountedOnly::kFileName).second) {
    const CountedOnly counted = CountedOnly::read(games_dir);
    report.samples += counted.samples;
    report.games += counted.games;
    chunks_counted_ += counted.chunks;
  }
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(games_dir)) {
    std::string name = entry.path().filename();
    if (entry.path().extension() == ".zst" && entry.is_regular_file() && !seen_.contains(name))
      names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  // Newest first, until the chunks read hold max_window samples; older ones are only counted.
  std::vector<Chunk> read_chunks(names.size());
  std::int64_t read_samples = 0;
  for (std::size_t i = names.size(); i-- > 0;) {
    seen_.insert(names[i]);
    const std::string path = games_dir + "/" + names[i];
    try {
      const ChunkCounts counts = chunk_counts<G>(path);
      if (counts.game != G::kName) {
        report.left_out.push_back(path + ": it holds games of " + counts.game + "; the run plays " +
                                  std::string(G::kName));
        continue;
      }
      if (read_samples < config_.max_window) {
        Chunk& chunk = read_chunks[i];
        read(path, chunk.samples, report);
        chunk.name = names[i];
        chunk.games = counts.games;
        read_samples += chunk.samples.size();
        report.samples += chunk.samples.size();
      } else {
        report.samples += counts.samples;
      }
      report.games += counts.games;
      ++chunks_counted_;
    } catch (const std::exception& e) {  // std::bad_alloc too: one chunk never ends the run
      report.skipped.push_back(e.what());
      ++skipped_;
    }
  }
  std::reverse(report.skipped.begin(), report.skipped.end());  // oldest first, as they were taken
  std::reverse(report.left_out.begin(), report.left_out.end());
  for (Chunk& chunk : read_chunks) {
    if (chunk.samples.empty()) continue;
    held_ += chunk.samples.size();
    chunks_.push_back(std::move(chunk));
  }
  total_ += report.samples;
  games_ += report.games;
  while (chunks_.size() > 1 && held_ - static_cast<std::int64_t>(chunks_.front().samples.size()) >= config_.max_window) {
    held_ -= chunks_.front().samples.size();
    chunks_.pop_front();
  }
  return report;
}

template <typename G>
std::int64_t BasicReplayBuffer<G>::window() const {
  const double c = config_.min_window;
  const double a = config_.window_exponent;
  constexpr double b = 0.4;
  const double grown = total_ <= c ? c : c * (1.0 + b * (std::pow(total_ / c, a) - 1.0) / a);
  return std::min<std::int64_t>({static_cast<std::int64_t>(grown), config_.max_window, held_});
}

template <typename G>
const BasicTrainingSample<G>& BasicReplayBuffer<G>::sample(std::mt19937_64& rng) const {
  std::int64_t back = std::uniform_int_distribution<std::int64_t>(0, window() - 1)(rng);
  for (auto chunk = chunks_.rbegin(); chunk != chunks_.rend(); ++chunk) {
    const auto& samples = chunk->samples;
    if (back < static_cast<std::int64_t>(samples.size())) return samples[samples.size() - 1 - back];
    back -= samples.size();
  }
  return chunks_.front().samples.front();  // unreachable: window() <= held_
}

template <typename G>
std::vector<std::string> BasicReplayBuffer<G>::window_chunks() const {
  std::vector<std::string> names;
  std::int64_t samples = 0;
  for (auto chunk = chunks_.rbegin(); chunk != chunks_.rend() && samples < window(); ++chunk) {
    names.push_back(chunk->name);
    samples += chunk->samples.size();
  }
  return names;
}

template <typename G>
CountedOnly BasicReplayBuffer<G>::counted_only(const std::vector<std::string>& chunks) const {
  CountedOnly counted{chunks_counted_, total_, games_};
  for (const Chunk& chunk : chunks_) {
    if (std::find(chunks.begin(), chunks.end(), chunk.name) == chunks.end()) continue;
    --counted.chunks;
    counted.samples -= chunk.samples.size();
    counted.games -= chunk.games;
  }
  return counted;
}

template <typename G>
BasicReplayBuffer<G> run_replay_buffer(const RunConfig& config) {
  return BasicReplayBuffer<G>(config.training, make_encoder<G>(boards_of(config)));
}

}  // namespace ataxx
