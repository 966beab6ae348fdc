// The template definitions of players/player.h (the registry of player kinds, make_player):
// included by player_spec.cpp, which compiles them for every game of games/registry.h, and by code
// that plays a game of its own (the tests').
#pragma once

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "players/baseline_players.h"
#include "players/player.h"
#include "util/text.h"

namespace ataxx {
namespace {

[[noreturn]] void spec_error(const std::string& spec, const std::string& what) {
  throw std::invalid_argument("player '" + spec + "': " + what);
}

}  // namespace

// One registry of player kinds a game, whichever file makes or registers a player.
namespace detail {

template <typename G>
struct Registry {
  std::mutex mutex;
  std::map<std::string, BasicPlayerFactory<G>> factories;
};

template <typename G>
Registry<G>& registry() {
  static Registry<G> instance;
  static std::once_flag builtins;
  std::call_once(builtins, [] { register_builtin_players<G>(instance.factories); });
  return instance;
}

}  // namespace detail

template <typename G>
typename G::MoveList moves_to_search(const typename G::Game& game, const MoveLimits& limits) {
  typename G::MoveList moves;
  if (!game.outcome().is_over()) game.position().generate_moves(moves);
  if (moves.empty()) throw std::logic_error("asked for a move in a finished game: " + game.position().fen());
  if (limits.search_moves.empty()) return moves;
  typename G::MoveList named;
  for (const auto move : moves)
    if (std::ranges::find(limits.search_moves, G::move_text(move, game.position())) != limits.search_moves.end())
      named.push_back(move);
  if (named.empty()) throw std::invalid_argument("searchmoves names none of the legal moves");
  return named;
}

template <typename G>
void register_player_kind(const std::string& kind, std::type_identity_t<BasicPlayerFactory<G>> factory) {
  detail::Registry<G>& r = detail::registry<G>();
  std::lock_guard lock(r.mutex);
  r.factories[kind] = std::move(factory);
}

template <typename G>
std::unique_ptr<BasicPlayer<G>> make_player(std::string_view text) {
  PlayerSpec spec(text);
  BasicPlayerFactory<G> factory;
  {
    detail::Registry<G>& r = detail::registry<G>();
    std::lock_guard lock(r.mutex);
    const auto it = r.factories.find(spec.kind());
    if (it == r.factories.end()) {
      std::string known;
      for (const auto& entry : r.factories) known += (known.empty() ? "" : ", ") + entry.first;
      spec_error(spec.text(), "unknown player kind '" + spec.kind() + "' (known: " + known + ")");
    }
    factory = it->second;
  }
  auto player = factory(spec);
  spec.finish();
  return player;
}

}  // namespace ataxx
