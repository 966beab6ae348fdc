// The analysis board's game tree (server/page/tree.js) without a browser: PGN's variations in and
// out, numbering from any start, promotion and deletion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameTree, addLines, mainLineOf, parsePgn, pgnText } from '../../server/page/tree.js';

const start = 'x5o/7/7/7/7/7/o5x x 0 1';
const treeOf = (pgn, fen = start) => {
  const parsed = parsePgn(pgn);
  const tree = new GameTree(fen, 'o');
  addLines(tree, parsed);
  return { tree, parsed };
};

test('nested variations are read and written back as PGN writes them', () => {
  const pgn = '1. b6 (1. f2 a2 (1... g2) 2. e3) 1... f6 2. c5 (2. a7c5 {a jump} $1 g5) 2... g5!? 3. c4 *';
  const { tree, parsed } = treeOf(pgn);
  assert.deepEqual(mainLineOf(parsed), ['b6', 'f6', 'c5', 'g5', 'c4']);
  assert.equal(tree.movetext(), '1. b6 (1. f2 a2 (1... g2) 2. e3) 1... f6 2. c5 (2. a7c5 g5) 2... g5 3. c4');
  assert.deepEqual(GameTree.pathOf(tree.follow(['f2', 'g2'])), ['f2', 'g2']);
  assert.equal(tree.root.children[0].children.length, 1, 'one move after b6');
});

test('a move already in the tree is followed, another one branches', () => {
  const { tree } = treeOf('1. b6 f6 *');
  tree.follow(['b6', 'f6']);
  tree.follow(['b6', 'g2']);
  assert.equal(tree.movetext(), '1. b6 f6 (1... g2)');
});

test('a line promoted becomes the main line; a line deleted takes its moves with it', () => {
  const { tree } = treeOf('1. b6 f6 (1... g2 2. c5) 2. c6 *');
  const c5 = tree.follow(['b6', 'g2', 'c5']);
  GameTree.promote(c5);
  assert.equal(tree.movetext(), '1. b6 g2 (1... f6 2. c6) 2. c5');
  assert.deepEqual(GameTree.lineThrough(tree.root.children[0]).map(n => n.move), [null, 'b6', 'g2', 'c5']);
  assert.equal(GameTree.remove(tree.follow(['b6', 'g2'])), tree.root.children[0]);
  assert.equal(tree.movetext(), '1. b6 f6 2. c6');
});

test('moves are numbered from the start position: its move number and side to move', () => {
  const { tree } = treeOf('b1 (f2) a2 c2', 'x5o/7/7/7/7/7/o5x o 0 12');
  assert.equal(tree.movetext(), '12... b1 (12... f2) 13. a2 c2');
  assert.deepEqual(tree.numberOf(0), { number: 12, second: true });
});

test('tags and comments are read wherever they stand', () => {
  const { tags, root } = parsePgn('[FEN "x5o/7/7/7/7/7/o5x x 0 1"] [Result "*"] 1. b6 ; a { in a line comment\nf6 {a (comment)} 2. c5 *');
  assert.equal(tags.FEN, 'x5o/7/7/7/7/7/o5x x 0 1');
  assert.deepEqual(mainLineOf({ root }), ['b6', 'f6', 'c5']);
});

test('unbalanced parentheses are refused with a reason', () => {
  assert.throws(() => parsePgn('1. b6 (f6'), /not closed/);
  assert.throws(() => parsePgn('1. b6 f6)'), /closes no variation/);
  assert.throws(() => parsePgn('(1. b6)'), /before any move/);
});

test('a long game imports whole: its lines are added without recursion', () => {
  // Each move of the main line once made a recursive call and rebuilt its path from the start.
  const moves = Array.from({ length: 20000 }, (_, i) => `m${i}`);
  const { tree } = treeOf(`${moves.join(' ')} (v w)`);
  const line = GameTree.lineThrough(tree.root).map(n => n.move);
  assert.equal(line.length, 20001);
  assert.equal(line.at(-1), 'm19999');
  assert.deepEqual(tree.find([...moves.slice(0, -1), 'v', 'w']).move, 'w');
});

test('PGN written: its tags escaped, the result last, read back as it was', () => {
  const { tree } = treeOf('1. b6 (1. f2 a2) 1... f6 *');
  const text = pgnText({ Event: 'a "quoted" \\ name', FEN: start }, tree.movetext(), '1-0');
  assert.equal(text, `[Event "a \\"quoted\\" \\\\ name"]\n[FEN "${start}"]\n[Result "1-0"]\n\n1. b6 (1. f2 a2) 1... f6 1-0\n`);
  const back = parsePgn(text);
  assert.deepEqual(back.tags, { Event: 'a "quoted" \\ name', FEN: start, Result: '1-0' });
  assert.equal(treeOf(text).tree.movetext(), tree.movetext());
});
