// The analysis engine's answer for the position shown: its summary and its best lines.
import { $ } from './dom.js';

const signed = x => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;

// `mover`: the side to move's name. The rows are kept from one answer to the next (only their text
// changes), so that the one under the pointer stays hovered while the search goes on: onHover(i),
// onHover(null) as the pointer enters and leaves line i, onClick(i) when it is clicked.
export function showAnalysis(message, mover, onHover, onClick) {
  const root = message.rootInfo;
  $('analysis-summary').textContent = `${message.isDuringSearch ? 'searching' : 'searched'}: ${root.visits} visits; ` +
    `${mover} to move wins ${(100 * root.winrate).toFixed(1)}%, lead ${signed(root.scoreLead)} men`;
  $('analysis-summary').dataset.visits = root.visits;
  const body = $('lines').tBodies[0];
  const lines = message.moveInfos.slice(0, 8);
  while (body.rows.length > lines.length) body.deleteRow(-1);
  while (body.rows.length < lines.length) {
    const row = body.insertRow();
    const i = row.sectionRowIndex;
    for (let k = 0; k < 5; ++k) row.insertCell();
    row.addEventListener('mouseenter', () => onHover(i));
    row.addEventListener('mouseleave', () => onHover(null));
    row.addEventListener('click', () => onClick(i));
  }
  lines.forEach((line, i) => {
    const texts = [line.move, line.visits, (100 * line.winrate).toFixed(1), signed(line.scoreLead), line.pv.join(' ')];
    texts.forEach((text, k) => { body.rows[i].cells[k].textContent = text; });
  });
}

// The line pinned (clicked) marked, or none.
export function markPinned(pinned) {
  for (const row of $('lines').tBodies[0].rows) row.classList.toggle('pinned', row.sectionRowIndex === pinned);
}

export function clearAnalysis(summary) {
  if (summary !== undefined) $('analysis-summary').textContent = summary;
  $('lines').tBodies[0].replaceChildren();
}
