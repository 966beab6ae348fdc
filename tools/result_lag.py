#!/usr/bin/env python3
"""When each side's own score first said how a game would end, and whether a longer search sees it sooner.

A PGN file written by `ataxx-zero match --pgn` carries each move's score in its comment
(`{+0.35/24 0.997s}`, in pawns from the mover's side). For each decided game of PLAYER, the ply
from which every score a side gave until the end said the winner wins by at least --margin pawns:
where the loser's scores came round many plies after the winner's, the loser's search did not see
what the winner's saw. The two engines' scales differ (ours maps its expected result to pawns as
lc0 does, an alpha-beta engine counts men), so compare the lags of won and lost games rather than
one lag alone. With --engine, PLAYER's engine searches again, afresh, the position of PLAYER's first
move after the opponent's scores said it was winning, for each of --engine-ms: a score that falls
with time points at search depth, one that stays at the evaluation.

Usage:
  python3 tools/result_lag.py GAMES.pgn [MORE.pgn ...] --player ataxx-engine \\
      --engine "ataxx-engine" --engine-ms 1000,10000
"""
import argparse
import re
import signal
import statistics
import sys

from blunders import Engine, player_side

def score_of(comment):
    """The score in pawns a move's comment gives (a mate as +-100), or None."""
    found = re.match(r'\{([+-])(?:(\d+\.\d+)|M\d+)/', comment)
    if not found:
        return None
    value = float(found.group(2)) if found.group(2) else 100.0
    return -value if found.group(1) == '-' else value


def scored_games(pgn):
    """(tags, moves, scores) of each game: a score for each move, None where its comment has none."""
    for text in pgn.split('[Event ')[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', '[Event ' + text))
        body = text.split('\n\n', 1)[1] if '\n\n' in text else ''
        moves, scores = [], []
        for token in re.findall(r'\{[^}]*\}|[^\s{]+', body):
            if token.startswith('{'):
                if moves and scores[-1] is None:
                    scores[-1] = score_of(token)
            elif not re.fullmatch(r'\d+\.+|1-0|0-1|1/2-1/2|\*', token):
                moves.append(token)
                scores.append(None)
        yield tags, moves, scores


def settled_at(plies, scores, sign, margin):
    """The first of a side's scored plies from which all its scores say `sign`'s result by margin
    (a move played without a search, a forced pass, has none and is passed over); None if none."""
    scored = [p for p in plies if scores[p] is not None]
    for i, ply in enumerate(scored):
        if all(scores[p] * sign >= margin for p in scored[i:]):
            return ply
    return None


def game_lag(tags, moves, scores, player, margin):
    """(won, own ply, opponent's ply) of a decided game, from PLAYER's side, or (won, None, None)
    where a side's scores never settled; None for a draw."""
    side = player_side(tags, player)
    result = tags.get('Result')
    if result not in ('1-0', '0-1'):
        return None
    if all(s is None for s in scores):
        raise ValueError(f'game {tags.get("Round", "?")} has no scores in its comments')
    won = result == ('1-0' if side == 'x' else '0-1')
    own_first = tags['FEN'].split()[1] == side
    own = [p for p in range(len(moves)) if (p % 2 == 0) == own_first]
    theirs = [p for p in range(len(moves)) if (p % 2 == 0) != own_first]
    mine, other = settled_at(own, scores, 1 if won else -1, margin), settled_at(theirs, scores, -1 if won else 1, margin)
    if mine is None or other is None:
        return won, None, None
    return won, mine, other


def lag_line(name, lags):
    if not lags:
        return f'{name}: none'
    return (f'{name}: {len(lags)}; the loser saw it {statistics.median(lags):.0f} plies after the winner at the '
            f'median (mean {statistics.mean(lags):.1f})')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('pgn', nargs='+', help='PGN files of matches')
    parser.add_argument('--player', required=True, help='part of the PGN name of the player to analyse')
    parser.add_argument('--margin', type=float, default=1.0, help='a score of at least this many pawns says the result')
    parser.add_argument('--engine', help="command of the player's own UAI engine (to search its lost positions again)")
    parser.add_argument('--engine-ms', default='1000,10000', help="the engine's times (ms), comma-separated")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit('result_lag: stopped'))  # the engine closed on the way out
    engine = None
    try:
        pgn = ''
        for path in args.pgn:
            with open(path) as file:
                pgn += file.read() + '\n'
        engine_ms = [int(ms) for ms in args.engine_ms.split(',')] if args.engine else []
        engine = Engine(args.engine) if args.engine else None
        wins, losses, searched, unsettled = [], [], [[] for _ in engine_ms], 0
        for tags, moves, scores in scored_games(pgn):
            row = game_lag(tags, moves, scores, args.player, args.margin)
            if not row:
                continue
            won, mine, other = row
            if mine is None:
                unsettled += 1
                continue
            (wins if won else losses).append(other - mine if won else mine - other)
            line = f'game {tags.get("Round", "?"):>3} {"won " if won else "lost"}: {args.player} at ply {mine + 1}, the other at {other + 1}'
            if engine and not won and other + 1 < len(moves):
                ply = other + 1  # the player's move right after
                line += f'; ply {ply + 1} in the game ' + ('(none)' if scores[ply] is None else f'{scores[ply]:+.2f}')
                for ms, found in zip(engine_ms, searched):
                    _, score = engine.search(tags['FEN'], moves[:ply], f'movetime {ms}')
                    found.append(score / 100)
                    line += f', at {ms} ms {score / 100:+.2f}'
            print(line, flush=True)
    except (OSError, ValueError, RuntimeError, KeyError) as error:
        sys.exit(f'result_lag: {error}')
    finally:
        if engine:
            engine.close()
    if unsettled:
        print(f'{unsettled} decided games left out: a side\'s scores never settled (the last by less than {args.margin:g})')
    print(lag_line(f'{args.player} won', wins))
    print(lag_line(f'{args.player} lost', losses))
    for ms, found in zip(engine_ms, searched):
        if found:
            print(f'searched again at {ms} ms: {statistics.mean(found):+.2f} at the mean, '
                  f'{sum(s <= -args.margin for s in found)} of {len(found)} at -{args.margin:g} or below')


if __name__ == '__main__':
    main()
