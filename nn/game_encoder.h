// The network's side of a game (batching, inference, training batches): the game's Encoder
// (games/game_type.h), made for the boards a network plays.
#pragma once

#include <string_view>

#include "games/ataxx/encoding.h"
#include "games/core/network_io.h"
#include "games/registry.h"

namespace ataxx {

template <GameType G>
using GameEncoder = typename G::Encoder;

// The encoder of a network of game G that plays `boards` (which a game without boards ignores).
template <GameType G>
GameEncoder<G> make_encoder(const BoardSet& boards) {
  if constexpr (G::kHasBoards)
    return GameEncoder<G>(boards);
  else
    return GameEncoder<G>();
}

// A position a network of `boards` plays: its first board's start (the start, in a game without boards).
template <GameType G>
typename G::Position start_for(const BoardSet& boards) {
  if constexpr (G::kHasBoards)
    return G::start_of(boards.boards.front()->name);
  else
    return G::start();
}

// The planes of a network of the default game on its default board: of a network made without a game.
inline NetworkIo default_network_io() { return GameEncoder<Games::First>().io(); }

// The planes of a network of the game named `game` (a model file's) that plays `boards`; throws
// std::invalid_argument for a game this build does not play.
inline NetworkIo network_io(std::string_view game, const BoardSet& boards) {
  return Games::with_game_named(game, [&]<typename G>() { return make_encoder<G>(boards).io(); });
}

}  // namespace ataxx
