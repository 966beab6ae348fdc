// The games self-play finished lately, a chunk at a time: their plies a game and their share of
// draws over about the last kGames games. These show a run whose self-play turns into drawn
// shuffles (jumps back and forth to the halfmove limit), a collapse its losses alone hide
// (docs/experiments.md, the A/A at one seed).
#pragma once

#include <deque>

namespace ataxx {

class RecentGames {
 public:
  static constexpr int kGames = 256;
  // Draws in this share of a full window are reported once; the report comes again only after
  // the share has fallen below kDrawShareCleared.
  static constexpr double kDrawShareWarned = 0.2;
  static constexpr double kDrawShareCleared = 0.1;

  // A chunk's games, plies and draws. Returns true when this chunk makes the window's draws
  // worth a warning (see above).
  bool add(int games, int plies, int draws);

  int games() const { return games_; }
  double plies_per_game() const { return games_ ? static_cast<double>(plies_) / games_ : 0.0; }
  double draw_share() const { return games_ ? static_cast<double>(draws_) / games_ : 0.0; }

 private:
  struct Chunk {
    int games, plies, draws;
  };
  std::deque<Chunk> chunks_;
  int games_ = 0, plies_ = 0, draws_ = 0;
  bool warned_ = false;
};

}  // namespace ataxx
