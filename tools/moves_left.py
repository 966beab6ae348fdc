#!/usr/bin/env python3
"""The mover's moves left against the empty cells, over the 7x7 games of a PGN file written by
`ataxx-zero match --pgn`: the fit behind players/time_manager.cpp.

Usage: python3 tools/moves_left.py GAMES.pgn
"""
import collections
import re
import statistics
import sys


def parse_fen(fen):
    cells = {}
    for r, row in enumerate(fen.split()[0].split('/')):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                cells[(file, 7 - r)] = ch  # a gap ('-') is no empty cell either
                file += 1
    return cells, fen.split()[1]


def square(text):
    return ord(text[0]) - ord('a'), int(text[1:])


def play(cells, side, move):
    if move == '0000':
        return
    if len(move) == 2:
        to = square(move)
    else:
        to = square(move[2:])
        del cells[square(move[:2])]
    cells[to] = side
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            near = (to[0] + dx, to[1] + dy)
            if cells.get(near) not in (None, '-', side):
                cells[near] = side


def samples(pgn):
    for game in pgn.split('[Event ')[1:]:
        fen = re.search(r'\[FEN "([^"]+)"\]', game).group(1)
        if len(fen.split()[0].split('/')) != 7:
            continue
        movetext = re.sub(r'\{[^}]*\}', ' ', game.split('\n\n', 1)[1])  # the players' comments
        tokens = [t for t in movetext.split()
                  if not re.fullmatch(r'\d+\.+', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
        cells, side = parse_fen(fen)
        for i, move in enumerate(tokens):
            yield 49 - len(cells), (len(tokens) - i + 1) // 2
            play(cells, side, move)
            side = 'o' if side == 'x' else 'x'


def main():
    rows = list(samples(open(sys.argv[1]).read()))
    by_empties = collections.defaultdict(list)
    for empties, left in rows:
        by_empties[empties].append(left)
    print('empties  positions  mean moves left  median  90th percentile')
    for empties in sorted(by_empties):
        left = sorted(by_empties[empties])
        print(f'{empties:7d}  {len(left):9d}  {statistics.mean(left):15.1f}  {left[len(left) // 2]:6d}'
              f'  {left[int(len(left) * 0.9)]:15d}')
    slope, intercept = statistics.linear_regression([e for e, _ in rows], [m for _, m in rows])
    print(f'least squares: moves left = {slope:.3f} x empties + {intercept:.2f}')
    residuals = [m - (slope * e + intercept) for e, m in rows]
    print(f'standard deviation of moves left about that line: {statistics.pstdev(residuals):.2f}'
          f' (of moves left: {statistics.pstdev(m for _, m in rows):.2f})')


if __name__ == '__main__':
    main()
