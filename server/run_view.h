// A training run's directory as the page reads it: its CSV tables, the end of its log, its live
// self-play games. Read-only: nothing here opens a file for writing, takes a lock the run takes,
// or reads more than a bounded tail; a file the run is writing is read as far as it is whole.
// Clients name tables and games, never paths: every file read is one this class names itself.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace ataxx::server {

class RunView {
 public:
  explicit RunView(std::string root);  // throws std::invalid_argument when it is not a run's directory

  // {"name", "game", "elapsed_minutes", "best", "tables": [...]} of the run now.
  nlohmann::json summary() const;
  // A table by name (metrics, ratings, gating, matches, selfplay): {"columns": [...], "rows":
  // [[...], ...]}, numbers as numbers; nullopt for a name that is not a table.
  std::optional<nlohmann::json> table(std::string_view name) const;
  // The log's last `lines` lines (at most 64 KiB of it).
  nlohmann::json log_tail(int lines) const;
  // The newest self-play game being played (or the last one played), as the self-play processes
  // publish it in live/: {"game", "start_fen", "moves": [...], "model", "rules": {"halfmove_limit",
  // "repetition_limit"} (the run's), "age_seconds"}; null
  // when there is none. A game is a game's or a variant's name, as in chunk_game.
  nlohmann::json live_game() const;
  // The newest self-play chunks of games/, at most `count`: [{"name", "games", "samples"}].
  nlohmann::json chunks(int count) const;
  // One game of a chunk as self-play recorded it (the positions of its full searches, each with
  // its visits): {"game", "games", "fens": [...], "searched": [[move, visits], ...] per position}; the
  // chunk is named by its file name in games/ (a plain .zst name), anything else is refused
  // (std::invalid_argument).
  nlohmann::json chunk_game(std::string_view name, int index) const;

 private:
  std::string root_;
  // A chunk never changes once written (it is renamed into place whole): its counts are read once.
  mutable std::mutex mutex_;
  mutable std::map<std::string, nlohmann::json> chunk_counts_;
};

}  // namespace ataxx::server
