// What the page draws, as JSON, for each game of mcts/games.h: the board's cells and where they
// lie, what stands on them, the legal moves (from, to, kind), the stocks and counts, and a
// search's report. The page knows no rules: every move it offers comes from here.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "games/registry.h"
#include "players/player.h"

namespace ataxx::server {

using nlohmann::json;

template <typename G>
struct GameView;

template <>
struct GameView<AtaxxGame> {
  static constexpr const char* kColours[2] = {"x", "o"};
  // {"name", "hexagonal", "size", "cells": [{"column", "row", "name"}, ...]}: cells by index.
  static json board(const Position& pos);
  // Per cell: "x", "o", "#" (a gap) or "".
  static json men(const Position& pos);
  // The ways to make the move: a clone once per piece that can make it (the page shows a
  // piece's moves when it is selected), a jump once, the pass with no squares.
  static json ways(Move move, const Position& pos);
  static json counts(const Position& pos);  // pieces of each side
  static int destination(Move move) { return move.is_pass() ? -1 : move.to; }
  static Move parse(std::string_view text, const Position& pos) { return parse_move(text, pos.board()); }
};

template <>
struct GameView<SchataxxGame> {
  static constexpr const char* kColours[2] = {"white", "black"};
  static json board(const schataxx::Position& pos);
  // Per cell: "" or a FEN letter ("K" White's king, "p" a Black soldier).
  static json men(const schataxx::Position& pos);
  static json ways(schataxx::Move move, const schataxx::Position& pos);
  // Areas of each side and the stocks: {"area": [w, b], "stocks": [{"Q": 1, ...}, {...}]}, an
  // unlimited count as -1.
  static json counts(const schataxx::Position& pos);
  static int destination(schataxx::Move move) { return move.is_pass() ? -1 : move.to; }
  static schataxx::Move parse(std::string_view text, const schataxx::Position&) { return schataxx::parse_move(text); }
};

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
