// The review's arithmetic (server/page/review.js) without a browser: each move's cost to its
// mover's chance, the first side's chances, and the end of a finished game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewLine } from '../../server/page/review.js';

// An answer of the analysis engine: the side to move's chance, and the move its search chose.
const searched = (player, winrate, best) => ({ rootInfo: { currentPlayer: player, winrate }, moveInfos: [{ move: best }] });
const answersOf = list => new Map(list.map((answer, turn) => [turn, answer]));
const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-9, `${a} is not ${b}`);

test('a move is judged from its mover\'s side: a fifth lost a blunder, a tenth a mistake', () => {
  const answers = answersOf([
    searched('x', 0.6, 'b6'),   // x to move: x 60 %
    searched('o', 0.45, 'f6'),  // x 55 %: x lost 0.05, nothing
    searched('x', 0.30, 'c5'),  // x 30 %: o gained
    searched('o', 0.85, 'g5'),  // x 15 %: x lost 0.15, a mistake
    searched('x', 0.50, 'a2'),  // x 50 %: o lost 0.35, a blunder
  ]);
  const { chances, moves, counts } = reviewLine(answers, 4, 'x', undefined);
  [0.6, 0.55, 0.3, 0.15, 0.5].forEach((chance, turn) => close(chances[turn], chance));
  assert.deepEqual(moves.map(m => [m.mover, m.player, m.kind, m.best]),
    [[0, 'x', '', 'b6'], [1, 'o', '', 'f6'], [0, 'x', 'mistake', 'c5'], [1, 'o', 'blunder', 'g5']]);
  close(moves[3].was, 0.85);  // o's own chance before and after
  close(moves[3].is, 0.5);
  assert.deepEqual(counts, [{ blunder: 0, mistake: 1 }, { blunder: 1, mistake: 0 }]);
});

test('where the game is over, its result is the chance: a loss, a win, a draw at half', () => {
  const line = [searched('x', 0.7, 'b6'), { noResults: true }];
  const lost = reviewLine(answersOf(line), 1, 'x', 'o');
  assert.deepEqual(lost.chances, [0.7, 0]);
  assert.equal(lost.moves[0].kind, 'blunder');
  assert.equal(reviewLine(answersOf(line), 1, 'x', 'x').moves[0].kind, '');
  const drawn = reviewLine(answersOf(line), 1, 'x', null);
  assert.deepEqual(drawn.chances, [0.7, 0.5]);
  assert.equal(drawn.moves[0].kind, 'blunder');
  assert.deepEqual(drawn.counts, [{ blunder: 1, mistake: 0 }, { blunder: 0, mistake: 0 }]);
});

test('the thresholds themselves: a loss of exactly a tenth is a mistake, of a fifth a blunder', () => {
  const judged = (before, after) => reviewLine(answersOf([searched('x', before, 'b6'), searched('o', 1 - after, 'f6')]), 1, 'x').moves[0].kind;
  assert.equal(judged(0.5, 0.41), '');
  assert.equal(judged(0.5, 0.4), 'mistake');
  assert.equal(judged(0.5, 0.3), 'blunder');
});
