// A search's report as UAI's `info` lines.
#pragma once

#include <string>

#include "players/player.h"

namespace ataxx {

// What info lines show beyond UAI's own fields.
struct InfoDisplay {
  bool show_wdl = false;            // UCI_ShowWDL: the search's win/draw/loss chances, after the score
  int multipv = 1;                  // MultiPV: a line for each of that many of the moves searched
  bool verbose_move_stats = false;  // VerboseMoveStats (lc0's): each root move's statistics before bestmove
};

// Info lines joined by newlines: one, or with MultiPV one per move searched (`multipv 1` the move
// to be played, then the others by visits or alpha-beta's score), each with its own score and pv.
template <typename G>
std::string info_lines(const BasicMoveReport<G>& r, const typename G::Position& root, const InfoDisplay& display);

// lc0's VerboseMoveStats, after a search: a line for each root move, fewest visits first (ties by
// prior), then the root's own (`node`). Each gives its visits, its prior, the search's win - loss
// and draw chances, its mean value Q (the utility the search maximises: the lead's share
// included), its exploration bonus U when the search ended, the network's win - loss (V) and
// the search's expected final lead in men (L), all from the root mover's view; `-` where not
// known (a move not visited, a position not evaluated).
template <typename G>
std::string verbose_move_stats(const BasicMoveReport<G>& r, const typename G::Position& root);

}  // namespace ataxx
