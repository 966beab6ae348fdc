// What the page draws, as JSON, for every game: its view (the board's cells and where they lie,
// what stands on them, the ways to make a move, the counts beside the board, games/<game>/view.h),
// a game replayed, and a search's report. The page knows no rules: every move it offers comes
// from here.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "games/registry.h"
#include "players/player.h"

namespace ataxx::server {

using nlohmann::json;

// The game's view (G::View, games/game_type.h): its board, men, the ways to make a move, its counts.
template <GameType G>
using GameView = typename G::View;

// The cells whose men changed colour between two positions (the turned ones).
template <typename G>
json turned_cells(const typename G::Position& before, const typename G::Position& after);

// A search's report, for the page's live view: moves in text and squares, the root's value.
template <typename G>
json report_json(const BasicMoveReport<G>& report, const typename G::Position& root);

json outcome_json(const Outcome& outcome, const char* const colours[2]);

// A game replayed for the page from its start and moves: the board, then one frame per position
// (men, the move that led there and the men it turned) and the outcome. Throws
// std::invalid_argument for a start or move that is not legal under `rules`.
template <typename G>
json replay_json(const typename G::Position& start, const std::vector<std::string>& moves,
                 const typename G::Rules& rules);
// The same for positions that do not follow each other by one move (a chunk's recorded ones):
// each frame the position's men and what the search played there (the most visited move).
template <typename G>
json positions_json(const std::vector<typename G::Position>& positions, const json& searched);

}  // namespace ataxx::server
