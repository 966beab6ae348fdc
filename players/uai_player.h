// An external UAI engine as a player: `uai:cmd=PATH[,movetime=MS|nodes=N|depth=D][,timeout=MS]
// [,NAME=VALUE...]`, other keys going to the engine as `setoption`. Runs the engine as a child
// process over pipes; a timeout, a crash or a malformed answer throws, which the match runner
// scores as a loss for this player. Plays any game (told the variant as UCI_Variant).
#pragma once

#include <memory>

#include "players/player.h"

namespace ataxx {

template <typename G>
std::unique_ptr<BasicPlayer<G>> make_uai_player(PlayerSpec& spec);

}  // namespace ataxx
