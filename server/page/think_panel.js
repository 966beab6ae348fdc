// What the engine's search says while it plays: its summary, win/draw/loss bar, principal
// variation and candidate moves.
import { $ } from './dom.js';

const pct = x => `${(100 * x).toFixed(1)}%`;

// The search's win/draw/loss for the side to move, else the network's at the root, else the
// value's (alpha-beta reports a score instead: null).
export function wdlOf(report) {
  if (report.value === null) return null;
  return report.wdl ?? report.net_wdl ?? [(1 + report.value) / 2, 0, (1 - report.value) / 2];
}

export function clearThink() {
  $('think-summary').textContent = '—';
  $('pv').textContent = '';
  $('wdl').hidden = true;
  $('candidates').tBodies[0].replaceChildren();
}

export function showThink(report) {
  const summary = $('think-summary');
  summary.dataset.ponder = report.ponder ? 'true' : 'false';
  summary.dataset.reused = report.reused;
  summary.dataset.nodes = report.nodes;
  if (report.ponder) {  // how far it got, not what it thinks of your moves: no hints
    summary.textContent = `${report.final ? 'pondered' : 'pondering'} on your time: ${report.nodes} nodes`;
    return;
  }
  const wdl = wdlOf(report);
  const lead = report.lead === null ? '' : `, lead ${report.lead >= 0 ? '+' : ''}${report.lead.toFixed(1)} men`;
  const moves = Math.abs(report.mate ?? 0);
  const proven = report.mate == null ? '' : `${report.mate > 0 ? 'wins' : 'loses'} in ${moves} move${moves === 1 ? '' : 's'}, `;
  const judged = proven + (wdl ? `value ${report.value.toFixed(3)} (win ${pct(wdl[0] + wdl[1] / 2)}${lead})` : `score ${report.score_cp} cp`);
  const reused = report.reused > 0 ? ` (${report.reused} kept from before)` : '';
  summary.textContent = `${report.final ? 'played' : 'searching'}: ${report.nodes} nodes${reused}, ` +
    `${report.nps ?? '—'} nodes/s, depth ${report.depth}, ${judged}`;
  $('wdl').hidden = !wdl;
  const bars = $('wdl').children;
  (wdl ?? [0.5, 0, 0.5]).forEach((x, i) => { bars[i].style.width = pct(x); bars[i].textContent = x > 0.08 ? pct(x) : ''; });
  $('pv').textContent = report.pv.join(' ');
  const wdlText = w => (w ? w.map(x => (100 * x).toFixed(1)).join(' / ') : '—');
  const rows = report.candidates.slice(0, 10).map(c => {
    const row = document.createElement('tr');
    for (const text of [c.move, c.visits, pct(c.prior), c.value.toFixed(3), wdlText(c.wdl), wdlText(c.net_wdl)])
      row.insertCell().textContent = text;
    return row;
  });
  $('candidates').tBodies[0].replaceChildren(...rows);
}
