// The review's findings: a row a move that lost a tenth or more of its mover's chance, and each
// side's blunders and mistakes.
import { $ } from './dom.js';

export function clearReview() {
  $('review-summary').textContent = '';
  $('review-moves').tBodies[0].replaceChildren();
}

// moves and counts: reviewLine's (review.js); played(ply): the move played at ply; colours: the sides' names.
export function showReview(moves, counts, played, colours) {
  const rows = moves.map(({ ply, player, was, is, kind, best }) => {
    const row = document.createElement('tr');
    if (kind) row.classList.add(kind);
    for (const text of [`${Math.floor(ply / 2) + 1}${ply % 2 ? '…' : '.'} ${played(ply)}`, player,
      `${(100 * was).toFixed(0)}% → ${(100 * is).toFixed(0)}%`, kind, best && best !== played(ply) ? best : '']) {
      row.insertCell().textContent = text;
    }
    return row;
  });
  $('review-moves').tBodies[0].replaceChildren(...rows);
  const many = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const said = side => `${colours[side]}: ${many(counts[side].blunder, 'blunder')}, ${many(counts[side].mistake, 'mistake')}`;
  $('review-summary').textContent = `${said(0)}; ${said(1)} (a blunder loses a fifth of the mover's chance, a mistake a tenth)`;
  $('review-summary').dataset.done = 'true';
}
