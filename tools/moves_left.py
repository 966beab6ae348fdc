#!/usr/bin/env python3
"""The mover's moves left over the games of a PGN file written by `ataxx-zero match --pgn`: the
fits behind players/time_manager.cpp. 7x7 Ataxx games against the empty cells; Schataxx games
against the men left in both stocks (each drop restarts the count of plies that ends the game);
those of the unlimited variant, whose soldiers never run out, against the empty squares.

Usage: python3 tools/moves_left.py GAMES.pgn [--schataxx | --schataxx-unlimited]
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


def ataxx_samples(fen, tokens):
    cells, side = parse_fen(fen)
    for i, move in enumerate(tokens):
        yield 49 - len(cells), (len(tokens) - i + 1) // 2
        play(cells, side, move)
        side = 'o' if side == 'x' else 'x'


def schataxx_samples(fen, variant, tokens):
    """The men left in both stocks, or in the unlimited variant (whose soldiers never run out) the
    empty squares: nothing is ever taken off the board, so only a drop changes either."""
    unlimited = variant == 'schataxx-unlimited'
    feature = (sum(int(ch) for ch in fen.split('[')[0] if ch.isdigit()) if unlimited
               else len(fen.split('[')[1].split(']')[0]))
    for i, move in enumerate(tokens):
        yield feature, (len(tokens) - i + 1) // 2
        feature -= '@' in move


def samples(pgn, kind):
    """(the feature, the mover's moves left) for each position of each game of the kind asked:
    'ataxx' (7x7), 'schataxx' (standard and balanced) or 'schataxx-unlimited'."""
    for game in pgn.split('[Event ')[1:]:
        fen = re.search(r'\[FEN "([^"]+)"\]', game).group(1)
        variant = re.search(r'\[Variant "([^"]+)"\]', game)
        variant = variant.group(1) if variant else 'ataxx'
        game_kind = variant if variant in ('ataxx', 'schataxx-unlimited') else 'schataxx'
        if game_kind != kind or (kind == 'ataxx' and len(fen.split()[0].split('/')) != 7):
            continue
        movetext = re.sub(r'\{[^}]*\}', ' ', game.split('\n\n', 1)[1])  # the players' comments
        tokens = [t for t in movetext.split()
                  if not re.fullmatch(r'\d+\.+', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
        if kind == 'ataxx':
            yield from ataxx_samples(fen, tokens)
        else:
            yield from schataxx_samples(fen, variant, tokens)


def print_table(rows, name):
    groups = collections.defaultdict(list)
    for value, left in rows:
        groups[value].append(left)
    print(f'{name}  positions  mean moves left  median  90th percentile')
    for value in sorted(groups):
        left = sorted(groups[value])
        print(f'{value:{len(name)}d}  {len(left):9d}  {statistics.mean(left):15.1f}  {left[len(left) // 2]:6d}'
              f'  {left[int(len(left) * 0.9)]:15d}')


def print_fit(rows, name):
    slope, intercept = statistics.linear_regression([x for x, _ in rows], [m for _, m in rows])
    print(f'least squares: moves left = {slope:.3f} x {name} + {intercept:.2f}')
    residuals = [m - (slope * x + intercept) for x, m in rows]
    print(f'standard deviation of moves left about that line: {statistics.pstdev(residuals):.2f}'
          f' (of moves left: {statistics.pstdev(m for _, m in rows):.2f})')


def main():
    kind = sys.argv[2].removeprefix('--') if len(sys.argv) > 2 else 'ataxx'
    if kind not in ('schataxx', 'schataxx-unlimited', 'ataxx'):
        sys.exit(__doc__)
    rows = list(samples(open(sys.argv[1]).read(), kind))
    if not rows:
        sys.exit(f'{sys.argv[1]}: no {kind} games with moves')
    if kind != 'schataxx':
        print_table(rows, 'empties')
        print_fit(rows, 'empties')
        return
    print_table(rows, 'stock men')
    few = [(men, left) for men, left in rows if men <= 7]
    print('up to 7 men in the stocks:')
    print_fit(few, 'stock men')
    more = [left for men, left in rows if men > 7]
    print(f'over 7 men in the stocks: mean moves left {statistics.mean(more):.1f} ({len(more)} positions)')


if __name__ == '__main__':
    main()
