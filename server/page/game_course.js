// The game's course as a KataGo or lichess user knows it: the moves' tree as text, and the first
// side's chance to win by ply, from the searches made at the nodes of the line shown.
import { plot } from './chart.js';
import { $ } from './dom.js';
import { GameTree } from './tree.js';

// The tree's lines, `current` marked; a click on a move calls goTo(its node).
export function renderTree(tree, current, goTo) {
  const box = $('move-tree');
  box.replaceChildren();
  const stack = [box];
  const add = (...items) => {
    const into = stack.at(-1);
    if (into.childNodes.length) into.append(' ');
    into.append(...items);
  };
  tree.walk(token => {
    if (token === '(') {
      const variation = document.createElement('span');
      variation.className = 'variation';
      add(variation);
      stack.push(variation);
    } else if (token === ')') {
      stack.pop();
    } else {
      const node = token.move;
      const move = document.createElement('button');
      move.className = ['move', node === current ? 'current' : '', node.mistake].filter(Boolean).join(' ');
      move.textContent = node.move;
      move.addEventListener('click', () => goTo(node));
      add(...(token.label ? [`${token.label} `, move] : [move]));
    }
  });
  box.dataset.moves = box.querySelectorAll('.move').length;
  box.dataset.variations = box.querySelectorAll('.variation').length;
}

// The chance along the line through `current` (to it, and on along its main line); a click on the
// graph calls goTo(the node of that ply).
export function drawWinChance(current, firstSide, goTo) {
  const line = GameTree.lineThrough(current);
  const plies = line.map((_, ply) => ply).filter(ply => line[ply].chance !== undefined);
  $('winrate-caption').textContent = `${firstSide}'s chance to win by ply (the engine's searches); a click goes there`;
  plot('plot-winrate', {
    height: 160,
    legend: { show: false },
    series: [{ label: 'ply' }, { label: firstSide, stroke: '#2c7be5', width: 1.5, points: { show: true, size: 4 } },
      { label: 'mistakes', stroke: '#c0392b', width: 0, points: { show: true, size: 10, fill: '#c0392b' } }],
    scales: { x: { time: false }, y: { range: [0, 100] } },
    axes: [{ incrs: [1, 2, 5, 10, 20, 50, 100, 200] }, { values: (u, ticks) => ticks.map(t => `${t}%`) }],
    hooks: { init: [u => u.over.addEventListener('click', () => {
      const ply = u.data[0][u.cursor.idx];
      if (ply !== undefined) goTo(ply);
    })] },
  }, [plies, plies.map(p => 100 * line[p].chance), plies.map(p => (line[p].mistake ? 100 * line[p].chance : null))]);
}
