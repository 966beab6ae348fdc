// The Run view: a training run's tables, plots, live self-play game and log, polled from the
// server (which only reads the run) every two seconds while the view is open.
import { drawBoard, moveMarks } from './board.js';
import { plot } from './chart.js';

const $ = id => document.getElementById(id);
const POLL_MS = 2000;
let liveFollowsEnd = true;

async function fetchJson(path) {
  const response = await fetch(path, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function column(table, name) {
  const i = table?.columns.indexOf(name) ?? -1;
  return i < 0 ? [] : table.rows.map(row => row[i]);
}

// x ascending, as uPlot wants it, the other series carried along.
function sortedBy(xs, ...series) {
  const order = xs.map((x, i) => i).filter(i => typeof xs[i] === 'number').sort((a, b) => xs[a] - xs[b]);
  return [order.map(i => xs[i]), ...series.map(s => order.map(i => s[i] ?? null))];
}

function plotElo(ratings) {
  const generations = [], elo = [], error = [];
  for (const row of ratings?.rows ?? []) {
    const match = /^gen-(\d+)$/.exec(row[0]);
    if (match) { generations.push(Number(match[1])); elo.push(row[1]); error.push(row[2]); }
  }
  const [x, y, e] = sortedBy(generations, elo, error);
  plotElo.errors = e;
  plot('plot-elo', {
    series: [{ label: 'generation' }, { label: 'Elo', stroke: '#c0392b', width: 1.5, points: { show: true, size: 4 } }],
    axes: [{ label: 'generation' }, { label: 'Elo' }],
    hooks: {
      draw: [u => {
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = 'rgba(192, 57, 43, 0.45)';
        ctx.lineWidth = 1;
        const [xs, ys] = [u.data[0], u.data[1]];
        for (let i = 0; i < xs.length; i++) {
          const err = plotElo.errors[i];
          if (ys[i] === null || !err) continue;
          const px = u.valToPos(xs[i], 'x', true);
          ctx.beginPath();
          ctx.moveTo(px, u.valToPos(ys[i] - err, 'y', true));
          ctx.lineTo(px, u.valToPos(ys[i] + err, 'y', true));
          ctx.stroke();
        }
        ctx.restore();
      }],
    },
  }, [x, y]);
}

function plotMetrics(metrics) {
  const step = column(metrics, 'step');
  plot('plot-loss', {
    series: [{ label: 'step' }, { label: 'total', stroke: '#2c3e50' }, { label: 'policy', stroke: '#2980b9' },
      { label: 'value', stroke: '#27ae60' }],
    axes: [{ label: 'training step' }, { label: 'loss' }],
  }, sortedBy(step, column(metrics, 'loss'), column(metrics, 'policy_loss'), column(metrics, 'value_loss')));
  plot('plot-trained', {
    series: [{ label: 'minutes' }, { label: 'samples trained/s', stroke: '#8e44ad' }],
    axes: [{ label: 'minutes' }, { label: 'samples/s' }],
  }, sortedBy(column(metrics, 'elapsed_minutes'), column(metrics, 'train_samples_per_second')));
}

function plotSelfplay(selfplay) {
  plot('plot-selfplay', {
    series: [{ label: 'minutes' }, { label: 'games/s', stroke: '#d35400', scale: 'games' },
      { label: 'evals/s', stroke: '#16a085', scale: 'evals' }],
    axes: [{ label: 'minutes' }, { label: 'games/s', scale: 'games' }, { label: 'evals/s', scale: 'evals', side: 1, grid: { show: false } }],
  }, sortedBy(column(selfplay, 'elapsed_minutes'), column(selfplay, 'games_per_second'), column(selfplay, 'evals_per_second')));
  // A run whose games turn to draws (shuffles to the halfmove limit) shows here first.
  const drawPercent = column(selfplay, 'recent_draw_share').map(share => typeof share === 'number' ? 100 * share : null);
  plot('plot-selfplay-games', {
    series: [{ label: 'minutes' }, { label: 'plies a game', stroke: '#8e44ad', scale: 'plies' },
      { label: 'draws (%)', stroke: '#c0392b', scale: '%' }],
    axes: [{ label: 'minutes' }, { label: 'plies a game', scale: 'plies' }, { label: 'draws (%)', scale: '%', side: 1, grid: { show: false } }],
    scales: { '%': { range: [0, 100] } },
  }, sortedBy(column(selfplay, 'elapsed_minutes'), column(selfplay, 'recent_plies_per_game'), drawPercent));
}

function fillTable(id, table, rows) {
  const element = $(id);
  const head = document.createElement('tr');
  for (const name of table?.columns ?? []) { const th = document.createElement('th'); th.textContent = name; head.appendChild(th); }
  element.tHead.replaceChildren(head);
  element.tBodies[0].replaceChildren(...rows.map(row => {
    const tr = document.createElement('tr');
    for (const value of row) { const td = document.createElement('td'); td.textContent = value; tr.appendChild(td); }
    return tr;
  }));
  element.dataset.rows = rows.length;
}

// The game shown: the live one (frames a move apart), or a chunk's (the positions self-play
// recorded, each with the move its search played).
function showGame(game) {
  showGame.current = game;
  if (!game?.frames) { $('live-status').textContent = 'no self-play game published yet'; return; }
  const slider = $('live-ply');
  const last = game.frames.length - 1;
  slider.max = last;
  if (liveFollowsEnd) slider.value = last;
  const at = Math.min(Number(slider.value), last);
  const frame = game.frames[at];
  drawBoard($('live-svg'), game.board, { men: frame.men, marks: moveMarks(frame.ways, frame.turned) });
  if (game.model) {
    const over = game.outcome ? `, over: ${game.outcome.score} (${game.outcome.reason})` : '';
    $('live-status').textContent = `${game.game} by ${game.model}: ply ${at} of ${last}${over}, ` +
      `updated ${Math.round(game.age_seconds)} s ago`;
  } else {
    $('live-status').textContent =
        `game ${$('replay-game').value} of ${game.games} recorded in the chunk: position ${at + 1} of ` +
        `${last + 1} recorded; its search played ${frame.move} (${frame.visits} visits)`;
  }
  $('live-status').dataset.plies = last;
}

function fillChunks(chunks) {
  const select = $('replay-source');
  const chosen = select.value;
  const options = [new Option('live', ''), ...chunks.map(c => new Option(`${c.name} (${c.games} games)`, c.name))];
  select.replaceChildren(...options);
  select.value = chunks.some(c => c.name === chosen) ? chosen : '';
}

async function showChosenGame() {
  const name = $('replay-source').value;
  if (!name) return showGame(await fetchJson('/api/run/live'));
  try {
    const game =
        await fetchJson(`/api/run/chunk?name=${encodeURIComponent(name)}&game=${Number($('replay-game').value)}`);
    $('replay-game').max = game.games - 1;  // the games it recorded, fewer than it played where some left none
    showGame(game);
  } catch (error) {
    $('live-status').textContent = `cannot show that game: ${error.message}`;
  }
}

let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  try {
    const summary = await fetchJson('/api/run');
    $('run-summary').textContent = `${summary.name}: ${summary.game}, ${summary.elapsed_minutes ?? 0} minutes, best ${summary.best ?? '—'}`;
    const tables = {};
    for (const name of summary.tables) tables[name] = await fetchJson(`/api/run/table/${name}`);
    plotElo(tables.ratings);
    plotMetrics(tables.metrics);
    plotSelfplay(tables.selfplay);
    fillTable('gating', tables.gating, (tables.gating?.rows ?? []).slice(-15).reverse());
    const kind = tables.matches?.columns.indexOf('kind') ?? -1;
    fillTable('ladder', tables.matches, (tables.matches?.rows ?? []).filter(r => r[kind] === 'ladder').slice(-15).reverse());
    $('log').textContent = (await fetchJson('/api/run/log?lines=40')).lines.join('\n');
    fillChunks(await fetchJson('/api/run/chunks'));
    if (!$('replay-source').value) showGame(await fetchJson('/api/run/live'));
  } catch (error) {
    $('run-summary').textContent = `cannot read the run: ${error.message}`;
  } finally {
    polling = false;
  }
}

// Shows the Run tab when the server watches a run; polls while it is open.
export async function startRun(onAvailable) {
  try { await fetchJson('/api/run'); } catch { return; }
  onAvailable();
  $('live-ply').addEventListener('input', () => {
    liveFollowsEnd = Number($('live-ply').value) === Number($('live-ply').max);
    if (showGame.current) showGame(showGame.current);
  });
  for (const id of ['replay-source', 'replay-game']) {
    $(id).addEventListener('change', () => {
      liveFollowsEnd = !$('replay-source').value;
      $('live-ply').value = 0;
      showChosenGame();
    });
  }
  document.querySelector('[data-view="run"]').addEventListener('click', poll);  // at once, not at the next tick
  const loop = async () => {
    if (!$('run-view').hidden) await poll();
    setTimeout(loop, POLL_MS);
  };
  loop();
}
