// A game reviewed as KataGo's and lichess's reviews do: from the analysis engine's final answer at
// each turn of a line, each move's cost to its mover's chance to win (a draw counts half).
export const mistakeLoss = 0.1;  // a mistake loses a tenth of the mover's chance
export const blunderLoss = 0.2;  // a blunder a fifth

// `answers`: Map(turn -> answer) for turns 0..plies; `first`: the colour that moves first; `winner`:
// where the line ends in a finished game, its winner's colour (null for a draw). Returns the first
// side's chance at each turn, a row for each move searched before it ({ply, mover (0 first),
// player, was, is (the mover's chance before and after), kind ('blunder', 'mistake' or ''), best
// (the search's choice)}) and each side's count of both kinds.
export function reviewLine(answers, plies, first, winner) {
  const firstChance = turn => {
    const root = answers.get(turn).rootInfo;
    if (root) return root.currentPlayer === first ? root.winrate : 1 - root.winrate;
    return !winner ? 0.5 : winner === first ? 1 : 0;  // no search where the game is over
  };
  const chances = Array.from({ length: plies + 1 }, (_, turn) => firstChance(turn));
  const counts = [{ blunder: 0, mistake: 0 }, { blunder: 0, mistake: 0 }];
  const moves = [];
  for (let ply = 0; ply < plies; ++ply) {
    const before = answers.get(ply);
    if (!before.rootInfo) continue;
    const player = before.rootInfo.currentPlayer;
    const mover = player === first ? 0 : 1;
    const [was, is] = [chances[ply], chances[ply + 1]].map(c => (mover === 0 ? c : 1 - c));
    const loss = was - is + 1e-9;  // a loss of exactly a tenth (0.5 - 0.4 is 0.0999...) is one
    const kind = loss >= blunderLoss ? 'blunder' : loss >= mistakeLoss ? 'mistake' : '';
    if (kind) counts[mover][kind] += 1;
    moves.push({ ply, mover, player, was, is, kind, best: before.moveInfos[0]?.move });
  }
  return { chances, moves, counts };
}
