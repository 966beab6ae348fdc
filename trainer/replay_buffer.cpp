#include "trainer/replay_buffer.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace ataxx {

ReplayBuffer::Refresh ReplayBuffer::refresh(const std::string& games_dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(games_dir))
    if (entry.is_regular_file() && entry.path().extension() == ".zst") names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  Refresh report;
  for (const std::string& name : names) {
    if (std::binary_search(loaded_.begin(), loaded_.end(), name)) continue;
    loaded_.insert(std::upper_bound(loaded_.begin(), loaded_.end(), name), name);
    std::vector<TrainingSample> samples;
    try {
      samples = read_chunk(games_dir + "/" + name);
      report.games += chunk_games(games_dir + "/" + name);
    } catch (const std::runtime_error& e) {
      report.skipped.push_back(e.what());
      ++skipped_;
      continue;
    }
    report.samples += samples.size();
    held_ += samples.size();
    chunks_.push_back(std::move(samples));
  }
  total_ += report.samples;
  games_ += report.games;
  while (chunks_.size() > 1 && held_ - static_cast<std::int64_t>(chunks_.front().size()) >= config_.max_window) {
    held_ -= chunks_.front().size();
    chunks_.pop_front();
  }
  return report;
}

std::int64_t ReplayBuffer::window() const {
  const double c = config_.min_window;
  const double a = config_.window_exponent;
  constexpr double b = 0.4;
  const double grown = total_ <= c ? c : c * (1.0 + b * (std::pow(total_ / c, a) - 1.0) / a);
  return std::min<std::int64_t>({static_cast<std::int64_t>(grown), config_.max_window, held_});
}

const TrainingSample& ReplayBuffer::sample(std::mt19937_64& rng) const {
  std::int64_t back = std::uniform_int_distribution<std::int64_t>(0, window() - 1)(rng);
  for (auto chunk = chunks_.rbegin(); chunk != chunks_.rend(); ++chunk) {
    if (back < static_cast<std::int64_t>(chunk->size())) return (*chunk)[chunk->size() - 1 - back];
    back -= chunk->size();
  }
  return chunks_.front().front();  // unreachable: window() <= held_
}

}  // namespace ataxx
