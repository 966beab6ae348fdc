#!/usr/bin/env python3
"""Which move lost each lost game, and whether a longer search would have found a better one.

A judge (a UAI engine searching afresh to a fixed depth, far deeper than the match allowed, so
that a position always gets the same score) goes through PLAYER's moves in a PGN file written by
`ataxx-zero match --pgn`. A move's loss is the judge's score after its own choice less its score
after the move played, both positions searched to the same depth from the mover's side: a score
of the position before the move would come from a search one ply deeper, which (pruned and
reduced) can miss what the shallower searches below it find. A game's decisive move is PLAYER's
costliest move played while the judge still saw a playable line (above -LOST). PLAYER's own engine
then searches that position again for each of --engine-ms, and the judge scores the moves it picks:
a loss that a longer search avoids points at search depth, one that it repeats at the evaluation.

Usage:
  python3 tools/blunders.py GAMES.pgn --player nn: --judge ~/engines/zataxx \\
      --judge-depth 12 --engine "build/tools/ataxx-zero uai" --engine-ms 100,1600
"""
import argparse
import re
import shlex
import signal
import statistics
import subprocess
import sys


class Engine:
    """A UAI engine in a child process."""

    def __init__(self, command):
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        except OSError as error:
            raise RuntimeError(f'cannot start "{command}": {error.strerror}') from None
        try:
            self.send('uai')
            self.wait_for('uaiok')
        except (BrokenPipeError, RuntimeError):
            raise RuntimeError(f'"{command}" does not answer as a UAI engine') from None

    def send(self, line):
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def wait_for(self, word):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f'engine closed its output before "{word}"')
            lines.append(line.strip())
            if line.split() and line.split()[0] == word:
                return lines

    def search(self, fen, moves, go):
        """The engine's best move and its last score, from the side to move (a mate as +-100000),
        searched afresh (a hash table kept from other positions would change the answer)."""
        self.send('uainewgame')
        self.send('position fen ' + fen + (' moves ' + ' '.join(moves) if moves else ''))
        self.send('go ' + go)
        lines = self.wait_for('bestmove')
        score = 0
        for line in lines:
            found = re.search(r'\bscore (?:cp )?(mate )?(-?\d+)', line)
            if found:
                value = int(found.group(2))
                score = (100000 if value > 0 else -100000) if found.group(1) else value
        return lines[-1].split()[1], score

    def close(self):
        try:
            self.send('quit')
            self.process.wait(timeout=2)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.process.kill()  # some engines neither quit on `quit` nor on a closed input


def games(pgn):
    """(tags, moves) of each game of the PGN text."""
    for text in pgn.split('[Event ')[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', '[Event ' + text))
        body = re.sub(r'\{[^}]*\}', ' ', text.split('\n\n', 1)[1] if '\n\n' in text else '')
        moves = [t for t in body.split()
                 if not re.fullmatch(r'\d+\.+', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
        yield tags, moves


def player_side(tags, player):
    """'x' (PGN's Black, the first to move from the start; 1-0 is its win) or 'o' for the player
    named `player`, or named like it where one name alone holds it (`depth=1` is in
    `alphabeta:depth=10` too: the whole name tells those apart)."""
    names = {'x': tags.get('Black', ''), 'o': tags.get('White', '')}
    for side, name in names.items():
        if name == player:
            return side
    like = [side for side, name in names.items() if player in name]
    if len(like) == 1:
        return like[0]
    game = tags.get('Round', '?')
    if like:
        raise ValueError(f'both players of game {game} are named like "{player}" '
                         f'("{names["x"]}", "{names["o"]}"): give one whole name')
    raise ValueError(f'no player named like "{player}" in game {game}')


class Analysis:
    def __init__(self, args):
        self.args = args
        self.judge = Engine(args.judge)
        self.engine = Engine(args.engine) if args.engine else None
        self.engine_ms = [int(ms) for ms in args.engine_ms.split(',')] if self.engine else []

    def close(self):
        self.judge.close()
        if self.engine:
            self.engine.close()

    def score(self, fen, moves):
        """The judge's score of the position, from its side to move."""
        clip = self.args.clip
        return max(-clip, min(clip, self.judge.search(fen, moves, f'depth {self.args.judge_depth}')[1]))

    def move_losses(self, fen, moves, ply):
        """The judge's choice at `ply`, its score from the mover's side and the score of the move played."""
        choice, _ = self.judge.search(fen, moves[:ply], f'depth {self.args.judge_depth + 1}')
        played = -self.score(fen, moves[:ply + 1])
        best = played if choice == moves[ply] else -self.score(fen, moves[:ply] + [choice])
        return choice, best, played

    def game(self, tags, moves):
        """The decisive move's loss and the engine's replays of it; None for a game the player did
        not lose, or lost with no move played from a playable position."""
        fen = tags['FEN']
        side = player_side(tags, self.args.player)
        if tags.get('Result') != ('0-1' if side == 'x' else '1-0'):
            return None
        own = [p for p in range(len(moves)) if (p % 2 == 0) == (fen.split()[1] == side)]
        judged = {p: self.move_losses(fen, moves, p) for p in own}
        playable = [p for p in own if judged[p][1] > -self.args.lost]
        if not playable:
            return None
        ply = max(playable, key=lambda p: judged[p][1] - judged[p][2])
        choice, best, played = judged[ply]
        replays = []
        for ms in self.engine_ms:
            move, _ = self.engine.search(fen, moves[:ply], f'movetime {ms}')
            replays.append((move, best + self.score(fen, moves[:ply] + [move])))
        print(f'game {tags.get("Round", "?"):>3} as {side} {tags.get("Result", "?"):>7}: ply {ply + 1:3d} '
              f'{moves[ply]:>5} lost {best - played:5d} ({choice:>5} {best:5d}, played {played:5d})'
              + ''.join(f' | {ms} ms: {move:>5} lost {loss:5d}' for ms, (move, loss) in zip(self.engine_ms, replays)),
              flush=True)
        return best - played, replays


def summary(rows, engine_ms, small):
    """The decisive moves' median loss, and how many of them each replay avoided (lost `small` or less)."""
    if not rows:
        return '0 games lost'
    text = f'{len(rows)} games; the decisive move lost {statistics.median(r[0] for r in rows):.0f} at the median'
    for i, ms in enumerate(engine_ms):
        text += f'; replayed at {ms} ms, {sum(r[1][i][1] <= small for r in rows)} avoided (lost {small} or less)'
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('pgn')
    parser.add_argument('--player', required=True, help='part of the PGN name of the player to analyse')
    parser.add_argument('--judge', required=True, help='command of the judging UAI engine')
    parser.add_argument('--judge-depth', type=int, default=12, help='the judge\'s depth after a move (choosing one: one more)')
    parser.add_argument('--lost', type=int, default=500, help='a position judged below -LOST is lost already')
    parser.add_argument('--small', type=int, default=50, help='a replay that loses this little avoided the decisive move')
    parser.add_argument('--clip', type=int, default=2000, help='judge scores are clipped to +-CLIP (mates, won endings)')
    parser.add_argument('--engine', help="command of the player's own UAI engine (to replay the decisive moves)")
    parser.add_argument('--engine-ms', default='100,1600', help="the engine's times per move (ms), comma-separated")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit('blunders: stopped'))  # engines closed on the way out
    try:
        with open(args.pgn) as file:
            pgn = file.read()
        analysis = Analysis(args)
        try:
            rows = [row for tags, moves in games(pgn) if (row := analysis.game(tags, moves))]
        finally:
            analysis.close()
    except (OSError, ValueError, RuntimeError, KeyError) as error:
        sys.exit(f'blunders: {error}')
    print(summary(rows, analysis.engine_ms, args.small))


if __name__ == '__main__':
    main()
