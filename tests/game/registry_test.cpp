// The one dispatch from a name or a FEN to the code written for a game's type.
#include "games/registry.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace ataxx {
namespace {

template <typename Dispatch>
std::string refusal(Dispatch dispatch) {
  try {
    dispatch();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const auto kNameOf = []<typename G>() { return std::string(G::kName); };

// A run, UCI_Variant or --variant names a game or a variant; a model file or a chunk the game
// itself; each refusal lists the names that dispatch takes.
TEST(Registry, ADispatchTakesTheNamesItSaysItTakes) {
  EXPECT_EQ(with_game("schataxx-balanced", kNameOf), "schataxx");
  EXPECT_EQ(Games::with_game_named("ataxx", kNameOf), "ataxx");
  EXPECT_EQ(refusal([] { with_game("chess", kNameOf); }),
            "unknown game 'chess' (ataxx, schataxx, schataxx-balanced or schataxx-unlimited)");
  EXPECT_EQ(refusal([] { Games::with_game_named("schataxx-balanced", kNameOf); }),
            "unknown game 'schataxx-balanced' (ataxx or schataxx)");
}

TEST(Registry, AFenGoesToTheGameThatClaimsIt) {
  EXPECT_EQ(Games::with_game_of_fen("x5o/7/7/7/7/7/o5x x 0 1", kNameOf), "ataxx");
  EXPECT_EQ(Games::with_game_of_fen("k6N/8/8/8/8/8/8/K6n[QRRBBNqrrbbn] w - - 0 1", kNameOf), "schataxx");
  EXPECT_EQ(GameOfPosition<schataxx::Position>::kName, "schataxx");
}

}  // namespace
}  // namespace ataxx
