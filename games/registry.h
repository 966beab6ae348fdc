// The games the programs play, and the one dispatch from a game's name (a run's, a model's, a
// command's) to the code written for its type. A new game: its folder, and a line in each list.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "games/ataxx/traits.h"
#include "games/game_type.h"
#include "games/schataxx/traits.h"

namespace ataxx {

// X(G) for every game, for explicit instantiations: ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE_SEARCH).
#define ATAXX_FOR_EACH_GAME(X) X(AtaxxGame) X(SchataxxGame)

template <GameType... Gs>
struct GameList {
  using First = std::tuple_element_t<0, std::tuple<Gs...>>;  // the default game
  static constexpr std::size_t kCount = sizeof...(Gs);
  // A value of one game's T at a time: a board of the browser view, a UAI engine's session.
  template <template <typename> class T>
  using Variant = std::variant<T<Gs>...>;

  // Calls visit.template operator()<G>() for the game named `name` (its own name or a variant's) and
  // returns what it returns (the same type for every game); another name throws
  // std::invalid_argument naming them all.
  template <typename Visit>
  static auto with_game(std::string_view name, Visit&& visit) {
    return dispatch(
        name, std::forward<Visit>(visit), []<typename G>(std::string_view n) { return plays<G>(n); },
        [](std::string_view n) { return "unknown game '" + std::string(n) + "' (" + names() + ")"; });
  }
  // As with_game, by the game's own name only: what model files and chunks record.
  template <typename Visit>
  static auto with_game_named(std::string_view name, Visit&& visit) {
    return dispatch(
        name, std::forward<Visit>(visit), []<typename G>(std::string_view n) { return n == G::kName; },
        [](std::string_view n) { return "unknown game '" + std::string(n) + "' (" + game_names() + ")"; });
  }
  // As with_game, for the first game whose FEN `fen` looks like (G::claims_fen): UAI's `position fen`.
  template <typename Visit>
  static auto with_game_of_fen(std::string_view fen, Visit&& visit) {
    return dispatch(
        fen, std::forward<Visit>(visit), []<typename G>(std::string_view f) { return G::claims_fen(f); },
        [](std::string_view f) { return "'" + std::string(f) + "' is the FEN of no game (" + game_names() + ")"; });
  }
  // Every game's name and its variants', the games in order.
  static std::vector<std::string_view> all_names() {
    std::vector<std::string_view> all;
    for (const auto& variants : {std::span<const std::string_view>(Gs::kVariants)...})
      for (const std::string_view name : variants) all.push_back(name);
    return all;
  }
  // "ataxx, schataxx, schataxx-balanced or schataxx-unlimited": every name, for messages and --help.
  static std::string names() { return listed(all_names()); }
  // "ataxx or schataxx": the games' own names.
  static std::string game_names() { return listed({Gs::kName...}); }
  // "a, b or c".
  static std::string listed(const std::vector<std::string_view>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
      text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
    return text;
  }
  static bool has(std::string_view name) { return (plays<Gs>(name) || ...); }
  static bool has_game_named(std::string_view name) { return ((name == Gs::kName) || ...); }
  // Calls visit.template operator()<G>() for every game, in order.
  template <typename Visit>
  static void for_each(Visit&& visit) {
    (visit.template operator()<Gs>(), ...);
  }
  // The game whose positions are P's: for code handed a position alone.
  template <typename P>
  using OfPosition = std::tuple_element_t<0, decltype(std::tuple_cat(
      std::declval<std::conditional_t<std::is_same_v<typename Gs::Position, P>, std::tuple<Gs>, std::tuple<>>>()...))>;

  // Whether `name` is game G's or one of its variants'.
  template <typename G>
  static bool plays(std::string_view name) {
    return std::ranges::find(G::kVariants, name) != G::kVariants.end();
  }

 private:
  // Visits the first game that `matches` the name; for none, throws std::invalid_argument with
  // refusal(name).
  template <typename Visit, typename Matches, typename Refusal,
            typename Returned = decltype(std::declval<Visit>().template operator()<First>())>
  static Returned dispatch(std::string_view name, Visit&& visit, Matches matches, Refusal refusal) {
    if constexpr (std::is_void_v<Returned>) {
      if (!((matches.template operator()<Gs>(name) ? (visit.template operator()<Gs>(), true) : false) || ...))
        throw std::invalid_argument(refusal(name));
    } else {
      std::optional<Returned> returned;
      if (!((matches.template operator()<Gs>(name) ? (returned.emplace(visit.template operator()<Gs>()), true) : false) ||
            ...))
        throw std::invalid_argument(refusal(name));
      return std::move(*returned);
    }
  }
};

using Games = GameList<AtaxxGame, SchataxxGame>;
#define ATAXX_COUNT_GAME(G) +1
static_assert((0 ATAXX_FOR_EACH_GAME(ATAXX_COUNT_GAME)) == Games::kCount, "ATAXX_FOR_EACH_GAME lists every game of Games");
#undef ATAXX_COUNT_GAME

// The game the programs play unless told another: what the pipeline's short names (Search, Player,
// MatchConfig, ...) are of.
using DefaultGame = Games::First;

template <typename P>
using GameOfPosition = Games::OfPosition<P>;

template <typename Visit>
auto with_game(std::string_view name, Visit&& visit) {
  return Games::with_game(name, std::forward<Visit>(visit));
}

}  // namespace ataxx
