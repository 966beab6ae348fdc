// Draws a board the server describes: its cells (square or hexagonal, each with a column and a
// row), the men on them, and marks. No rules here: what is legal comes from the server.

const SVG = 'http://www.w3.org/2000/svg';
const UNIT = 56;
const GLYPHS = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '●' };

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// Each cell's centre and outline. Hexagon: flat-topped columns, neighbours (±1, 0), (0, ±1),
// (+1, +1), (-1, -1) in (column, row), as game/board.h numbers them.
function layout(board) {
  const cells = new Map();
  if (board.hexagonal) {
    const r = UNIT / Math.sqrt(3);
    for (const c of board.cells) {
      const x = 1.5 * r * c.column;
      const y = -Math.sqrt(3) * r * (c.row - c.column / 2);
      const points = [0, 1, 2, 3, 4, 5].map(k => {
        const angle = Math.PI / 3 * k;
        return [x + r * Math.cos(angle), y + r * Math.sin(angle)];
      });
      cells.set(c.index, { ...c, x, y, points, radius: r * 0.62 });
    }
  } else {
    for (const c of board.cells) {
      const x = (c.column + 0.5) * UNIT;
      const y = (board.size - c.row - 0.5) * UNIT;
      const h = UNIT / 2;
      const points = [[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]];
      cells.set(c.index, { ...c, x, y, points, radius: UNIT * 0.36 });
    }
  }
  return cells;
}

// options: men {cell: text}, marks {cell: [class, ...]}, heat {cell: 0..1}, onCell(cell), labels,
// ownership {cell: -1..1, the first side's at 1}, pv {cell: [number, side]} (a line's moves, numbered)
export function drawBoard(svg, board, options) {
  const cells = layout(board);
  const all = [...cells.values()].flatMap(c => c.points);
  const xs = all.map(p => p[0]), ys = all.map(p => p[1]);
  const pad = 18;
  const [minX, minY] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
  const [width, height] = [Math.max(...xs) - minX + pad, Math.max(...ys) - minY + pad];
  svg.setAttribute('viewBox', `${minX} ${minY} ${width} ${height}`);
  svg.replaceChildren();
  svg.dataset.board = board.name;
  for (const cell of cells.values()) {
    const man = options.men?.[cell.index] ?? '';
    const marks = options.marks?.[cell.index] ?? [];
    const group = element('g', { class: ['cell', ...marks].join(' '), 'data-cell': cell.index, 'data-name': cell.name }, svg);
    element('polygon', { points: cell.points.map(p => p.join(',')).join(' '), class: man === '#' ? 'gap' : 'square' }, group);
    const heat = options.heat?.[cell.index];
    if (heat > 0) element('polygon', { points: cell.points.map(p => p.join(',')).join(' '), class: 'heat', 'fill-opacity': Math.min(0.85, 0.1 + heat) }, group);
    const owner = options.ownership?.[cell.index];
    if (owner) element('polygon', { points: cell.points.map(p => p.join(',')).join(' '), class: owner > 0 ? 'own-0' : 'own-1', 'fill-opacity': 0.55 * Math.abs(owner), 'data-owner': owner.toFixed(2) }, group);
    if (man === 'x' || man === 'o') {
      element('circle', { cx: cell.x, cy: cell.y, r: cell.radius, class: `man ${man}`, 'data-man': man }, group);
    } else if (man && man !== '#') {
      const white = man === man.toUpperCase();
      element('circle', { cx: cell.x, cy: cell.y, r: cell.radius, class: `man ${white ? 'white' : 'black'}`, 'data-man': man }, group);
      const glyph = element('text', { x: cell.x, y: cell.y, class: `glyph ${white ? 'white' : 'black'}` }, group);
      glyph.textContent = GLYPHS[man.toUpperCase()] ?? man;
    }
    if (marks.includes('clone') || marks.includes('jump') || marks.includes('target'))
      element('circle', { cx: cell.x, cy: cell.y, r: cell.radius * 0.35, class: 'dot' }, group);
    if (marks.includes('turned')) element('circle', { cx: cell.x, cy: cell.y, r: cell.radius * 0.18, class: 'turned-dot' }, group);
    const step = options.pv?.[cell.index];
    if (step) element('text', { x: cell.x, y: cell.y, class: `pv-label side-${step[1]}` }, group).textContent = step[0];
    if (options.labels) {
      const label = element('text', { x: cell.points[0][0] + 3, y: cell.points[0][1] + 11, class: 'label' }, group);
      label.textContent = board.hexagonal ? '' : cell.name;
    }
    if (options.onCell) group.addEventListener('click', () => options.onCell(cell.index));
  }
}

export function glyphOf(letter) { return GLYPHS[letter.toUpperCase()] ?? letter; }

// Marks of a move: the cells it left and reached, and the men it turned.
export function moveMarks(ways, turned) {
  const marks = {};
  const add = (cell, mark) => { if (cell !== null && cell !== undefined) (marks[cell] ??= []).push(mark); };
  for (const way of ways ?? []) {
    if (way.kind !== 'clone') add(way.from, 'last-from');  // a clone's piece stays: only where it went
    add(way.to, 'last-to');
  }
  for (const cell of turned ?? []) add(cell, 'turned');
  return marks;
}
