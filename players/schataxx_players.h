// Schataxx's baselines, made from the same specs as Ataxx's: `random`, `greedy` (the largest area
// after the move, ties at random), `alphabeta[:depth=D,time=MS]` (players/alphabeta.h, on area, then men) and
// `mcts[:visits=N,eval=area|uniform,...]` (the shared search with uniform priors and a value from
// the lead in area), `nn:model=FILE,...` (a Schataxx network, as Ataxx's `nn`) and
// `uai:cmd=PATH,...` (a UAI engine that plays Schataxx, players/uai_player.h).
#pragma once

#include <map>
#include <string>

#include "players/player.h"

namespace ataxx {

using SchataxxPlayer = BasicPlayer<SchataxxGame>;

void register_builtin_players(std::map<std::string, BasicPlayerFactory<SchataxxGame>>& factories);

}  // namespace ataxx
