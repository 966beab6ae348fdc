// The stocks of a game that drops men (Schataxx): a token a kind of man, dragged onto the board,
// or clicked and then its square clicked.
import { glyphOf } from './board.js';
import { $ } from './dom.js';

// state: the server's; picked: the letter chosen (or none); onPick(letter) chooses one, onDrop(cell)
// drops the chosen one there.
export function renderStocks(state, picked, onPick, onDrop) {
  for (const side of [0, 1]) {
    const box = $(`stock-${side}`);
    box.replaceChildren();
    const stock = state.counts.stocks?.[side];
    box.hidden = !stock;
    if (!stock) continue;
    for (const [letter, count] of Object.entries(stock)) {
      const token = document.createElement('button');
      token.className = `token ${side === 0 ? 'white' : 'black'}`;
      token.dataset.piece = letter;
      token.setAttribute('data-testid', `stock-${side}-${letter}`);
      token.textContent = `${glyphOf(letter)} ${count < 0 ? '∞' : count}`;
      token.disabled = count === 0 || side !== state.side;
      if (picked === letter && side === state.side) token.classList.add('selected');
      token.addEventListener('pointerdown', event => startDrag(event, letter, onPick, onDrop));
      box.appendChild(token);
    }
  }
}

function startDrag(event, letter, onPick, onDrop) {
  onPick(letter);
  const ghost = document.createElement('div');
  ghost.className = 'ghost';
  ghost.textContent = glyphOf(letter);
  document.body.appendChild(ghost);
  const move = e => { ghost.style.left = `${e.clientX - 16}px`; ghost.style.top = `${e.clientY - 16}px`; };
  move(event);
  const up = e => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    ghost.remove();
    const cell = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-cell]');
    if (cell) onDrop(Number(cell.dataset.cell));
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
}
