// An external UAI engine as a player: `uai:cmd=PATH[,movetime=MS|nodes=N|depth=D][,timeout=MS]
// [,ponder=1][,NAME=VALUE...]`, other keys going to the engine as `setoption`. With ponder=1 the
// engine thinks on its opponent's time (`go ponder` on the reply its bestmove names, then
// `ponderhit` or `stop`), as a GUI that ponders runs it. Runs the engine as a child
// process over pipes; a timeout, a crash or a malformed answer throws, which the match runner
// scores as a loss for this player. Plays any game (told the variant as UCI_Variant).
#pragma once

#include <memory>
#include <string_view>

#include "players/player.h"

namespace ataxx {

template <typename G>
std::unique_ptr<BasicPlayer<G>> make_uai_player(PlayerSpec& spec);

// Whether spec is such a player with ponder=1; false for any other, and for a spec that does not
// parse (make_player's to refuse).
bool uai_spec_ponders(std::string_view spec);

}  // namespace ataxx
