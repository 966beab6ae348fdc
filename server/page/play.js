// The Play view: one WebSocket to the server's board (/api/play). The server holds the game and
// says which moves are legal; this page draws, sends what the user picks and asks the engine to
// move for the sides it plays.
import { clearAnalysis, markPinned, showAnalysis } from './analysis_panel.js';
import { drawBoard, moveMarks } from './board.js';
import { $ } from './dom.js';
import { drawWinChance as plotWinChance, renderTree as drawTree } from './game_course.js';
import { reviewLine } from './review.js';
import { clearReview, showReview } from './review_panel.js';
import { renderStocks } from './stocks.js';
import { clearThink, showThink, wdlOf } from './think_panel.js';
import { GameTree, addLines, mainLineOf, parsePgn, pgnText } from './tree.js';

let socket = null;
let state = null;
let think = null;
let selected = null;      // a cell, or {drop: 'Q'}
let paused = false;
let goSentIn = null;  // the version of the state the last go was sent in: one go per state
let ponderSentIn = null;  // and of the last ponder
let tree = null;         // every line of the game from its start (tree.js); a node's chance: the
let current = null;      // first side's expected score by a search there; `current`: the state's node
let pendingPgn = null;   // a PGN imported: its lines go to the tree of the game the server starts
let restoredTree = null; // the tree kept through a reconnection: the game started again takes it up
let lineSent = null;     // {id, node}: the line asked for (the moves to `node`), until it is answered
let lineWaiting = null;  // the node asked for meanwhile: its line is sent then
let linesSent = 0;
let analysis = null;     // with analysis on: the analysis engine's latest answer for the state shown
let hoveredLine = null;  // the analysis line under the pointer: its moves on the board
let pinnedLine = null;   // the line clicked: shown while no other is hovered
let review = null;       // the review asked for: {id, turns: Map(turn -> final answer)}

function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function show(text, isError = false) {
  $('message').textContent = text;
  $('message').classList.toggle('error', isError);
}

const isEngine = side => $(`player-${side}`).value === 'engine';

// The engine's budget, and its level where one is chosen (the level keeps to fewer visits).
function budget() {
  const value = Math.max(1, parseInt($('budget').value, 10) || 1);
  const level = $('level').value ? { elo: Number($('level').value) } : {};
  return { ...level, ...($('budget-kind').value === 'visits' ? { visits: value } : { movetime: value }) };
}

function waysOf(filter) {
  return (state?.moves ?? []).flatMap(m => m.ways.filter(filter).map(way => ({ ...way, text: m.text })));
}

function marks() {
  const result = state.last ? moveMarks(state.last.ways, state.last.turned) : {};
  const add = (cell, mark) => (result[cell] ??= []).push(mark);
  // A game that counts territory: the empty squares each side's area counts.
  (state.counts.territory ?? []).forEach((cells, side) => cells.forEach(cell => add(cell, `territory-${side}`)));
  if (typeof selected === 'number') {
    add(selected, 'selected');
    for (const way of waysOf(w => w.from === selected)) add(way.to, way.kind === 'jump' ? 'jump' : way.kind === 'clone' ? 'clone' : 'target');
  } else if (selected?.drop) {
    for (const way of waysOf(w => w.kind === 'drop' && w.piece === selected.drop)) add(way.to, 'target');
  }
  return result;
}

function heat() {
  // The search's policy, on the position it searched only.
  if (!$('heat').checked || !think || think.ply !== state.history.length || think.gameNumber !== state.game_number) return null;
  const sums = {};
  for (const c of think.candidates) if (c.to !== null) sums[c.to] = (sums[c.to] ?? 0) + c.prior;
  return sums;
}

// Who the net expects to hold each cell at the end, the first side at 1 (the answer's view is the
// side to move's).
function ownership() {
  if (!$('ownership').checked || !analysis?.ownership) return null;
  const sign = state.side === 0 ? 1 : -1;
  return Object.fromEntries(analysis.ownership.map((owner, cell) => [cell, sign * owner]));
}

// Where a move lands, from its text: the last cell it names (b6, a7c5, Q@g8, e7e8q).
function destination(text) {
  const name = /([a-z][0-9]{1,2})[a-z]?$/.exec(text)?.[1];
  return state.board.cells.find(c => c.name === name)?.index;
}

// The hovered line's moves on the board, numbered, each in its mover's colour.
function lineMarks() {
  const line = analysis?.moveInfos?.[hoveredLine ?? pinnedLine];
  if (!line) return null;
  const steps = {};
  line.pv.slice(0, 9).forEach((move, i) => {
    const cell = destination(move);
    if (cell !== undefined && !(cell in steps)) steps[cell] = [i + 1, (state.side + i) % 2];
  });
  return steps;
}

function render() {
  if (!state) return;
  drawBoard($('board-svg'), state.board,
    { men: state.men, marks: marks(), heat: heat(), onCell: clickCell, labels: true, ownership: ownership(), pv: lineMarks() });
  renderStocks(state, selected?.drop, letter => { selected = { drop: letter }; render(); }, clickCell);
  const [first, second] = state.colours;
  // The choices follow the game the server plays (a FEN set up may change it).
  const boards = games[state.game]?.boards ?? true;
  $('game').value = state.game;
  $('board-choice').hidden = !boards;
  $('variant-choice').hidden = boards;
  if (boards) {
    const preset = [...$('board').options].find(o => o.value === `fen:${state.start_fen}`);
    $('board').value = preset ? preset.value : state.board.name;
  } else {
    offerVariants(state.game);
    $('variant').value = state.variant;
  }
  $('first-name').textContent = first;
  $('second-name').textContent = second;
  const counts = state.counts.pieces ? `pieces ${state.counts.pieces.join(' – ')}` : `area ${state.counts.area.join(' – ')}`;
  const outcome = state.outcome;
  $('status').textContent = outcome
    ? `Game over: ${outcome.winner ? outcome.winner + ' wins' : 'draw'} ${outcome.score} (${outcome.reason}); ${counts}`
    : `${state.colours[state.side]} to move${state.thinking ? ' (engine thinking)' : ''}; ${counts}`;
  $('status').dataset.over = outcome ? 'true' : 'false';
  $('board-svg').dataset.gameNumber = state.game_number;
  $('engine-name').textContent = state.engine;
  $('fen').value = state.fen;
  $('moves').value = lineText(state.history);
  renderTree();
  $('pass').hidden = !(state.moves.length === 1 && state.moves[0].ways[0].kind === 'pass' && !isEngine(state.side));
  $('pause').textContent = paused ? 'Resume' : 'Pause';
}

function cellName(cell) { return state.board.cells.find(c => c.index === cell)?.name ?? '?'; }

function clickCell(cell) {
  if (!state || state.outcome || state.thinking || isEngine(state.side)) return;
  if (selected?.drop) {
    const letter = selected.drop;
    const way = waysOf(w => w.kind === 'drop' && w.piece === letter && w.to === cell)[0];
    selected = null;
    send({ type: 'move', move: way ? way.text : `${letter}@${cellName(cell)}` });
    return;
  }
  if (typeof selected === 'number' && selected !== cell) {
    const way = waysOf(w => w.from === selected && w.to === cell)[0];
    const from = selected;
    if (way || !waysOf(w => w.from === cell).length) {
      selected = null;
      // Not one of the moves shown: the server says why it is refused.
      send({ type: 'move', move: way ? way.text : cellName(from) + cellName(cell) });
      return;
    }
  }
  selected = waysOf(w => w.from === cell).length ? (selected === cell ? null : cell) : null;
  render();
}

// The go names its state: the server drops one that a move or a new game overtook on its way.
function maybeEngineMove() {
  if (!state || state.outcome || state.thinking || paused || goSentIn === state.version || !isEngine(state.side)) return;
  goSentIn = state.version;
  send({ type: 'go', version: state.version, ...budget() });
}

// With "think on your time", the engine searches while the player to move thinks (at full
// strength): its reply starts from that tree.
function maybePonder() {
  if (!$('ponder').checked || !state || state.outcome || state.thinking || paused || $('level').value) return;
  if (isEngine(state.side) || !isEngine(1 - state.side) || ponderSentIn === state.version) return;
  ponderSentIn = state.version;
  send({ type: 'ponder', version: state.version });
}

function onState(next) {
  if (restoredTree && next.game_number === 1) return;  // a new session's greeting: the game shown comes next
  const restored = restoredTree?.fen === next.start_fen ? restoredTree : null;
  restoredTree = null;
  // A move or a new game clears the message about the last one refused.
  if (state && (state.game_number !== next.game_number || state.history.length !== next.history.length)) show('');
  if (state?.game_number !== next.game_number) {  // a new game: a tree of its own (an imported one's)
    tree = restored ?? new GameTree(next.start_fen, next.colours[1]);
    if (pendingPgn) addLines(tree, pendingPgn);
    pendingPgn = null;
    think = null;
    review = null;
    clearReview();
    clearThink();
  }
  if (state?.version !== next.version) {  // the analysis shown was of another position
    analysis = null;
    hoveredLine = pinnedLine = null;
    clearAnalysis();
  }
  state = next;
  current = nodeOf(next);
  drawWinChance();
  if (!state.thinking) selected = null;
  render();
  setTimeout(() => { maybeEngineMove(); maybePonder(); }, 50);
}

// The state's node of the tree. A state that answers the line asked for is its node (the moves
// named as the server names them); one that crossed it on the way adds no node, so that a line
// just deleted does not come back; any other's moves are followed, a new one a new variation.
function nodeOf(next) {
  if (lineSent && next.line_id === lineSent.id) {
    const { node } = lineSent;
    GameTree.lineThrough(node).slice(1, next.history.length + 1).forEach((n, i) => { n.move = next.history[i]; });
    lineAnswered();
    return node;
  }
  if (lineSent) return tree.find(next.history) ?? current ?? tree.root;
  return tree.follow(next.history);
}

// Moves' texts numbered as the tree numbers them: "1. b6 a1b3 2. c7".
function lineText(moves) {
  return moves.map((m, ply) => {
    const { number, second } = tree.numberOf(ply);
    return !second ? `${number}. ${m}` : ply === 0 ? `${number}... ${m}` : m;
  }).join(' ');
}

const renderTree = () => drawTree(tree, current, goTo);
const drawWinChance = () => plotWinChance(current, state.colours[0], ply => goTo(GameTree.lineThrough(current)[ply]));

// The board shows another node of the tree: the server plays its line from the start. The engine
// waits (Resume) so that it does not answer in the line being studied.
function goTo(node) {
  if (!node || node === current) return;
  paused = true;
  sendLine(node);
}

// One line asked for at a time: a later one waits for its answer, the last one asked for kept.
function sendLine(node) {
  if (lineSent) return void (lineWaiting = node);
  if (socket?.readyState !== WebSocket.OPEN) return;
  lineSent = { id: ++linesSent, node };
  send({ type: 'line', moves: GameTree.pathOf(node), id: lineSent.id });
}

function lineAnswered() {
  lineSent = null;
  const waiting = lineWaiting;
  lineWaiting = null;
  if (waiting) sendLine(waiting);
}

function deleteLine() {
  if (!current?.parent) return;
  paused = true;
  sendLine(GameTree.remove(current));
}

function promoteLine() {
  if (!current) return;
  GameTree.promote(current);
  render();
  drawWinChance();
}

function onAnalysis(message) {
  if (review && message.id === review.id) return onReviewed(message);
  // Of a position left since, or come after the analysis was turned off:
  if (!state || message.id !== `shown-${state.version}` || message.noResults || !$('analyze').checked) return;
  if (message.error) {
    $('analysis-summary').textContent = message.error;
    return;
  }
  analysis = message;
  const root = message.rootInfo;
  current.chance = state.side === 0 ? root.winrate : 1 - root.winrate;
  drawWinChance();
  const hover = i => { hoveredLine = i; render(); };
  const pin = i => { pinnedLine = pinnedLine === i ? null : i; markPinned(pinnedLine); render(); };
  showAnalysis(message, state.colours[state.side], hover, pin);
  render();
}

let reviewsAsked = 0;

function startReview() {
  const id = String(++reviewsAsked);  // answers of an earlier review, stopped, carry another
  // The line reviewed: its nodes from the start, the searches' chances and mistakes go to them.
  const nodes = GameTree.lineThrough(current).slice(0, state.history.length + 1);
  review = { id: `review-${id}`, turns: new Map(), plies: state.history.length, nodes, outcome: state.outcome };
  $('review-summary').textContent = `reviewing ${review.plies} moves…`;
  $('review-moves').tBodies[0].replaceChildren();
  send({ type: 'review', visits: Number($('review-visits').value), id });
}

// A turn of the review: once every turn is in, the moves that lost a tenth or more of their
// mover's chance named (review.js), the graph redrawn from the review's searches.
function onReviewed(answer) {
  if (answer.isDuringSearch) return;
  review.turns.set(answer.turnNumber, answer);
  if (review.turns.size < review.plies + 1) return;
  const { chances, moves, counts } = reviewLine(review.turns, review.plies, state.colours[0], review.outcome?.winner);
  for (const { ply, kind } of moves) review.nodes[ply + 1].mistake = kind;
  chances.forEach((chance, turn) => { review.nodes[turn].chance = chance; });
  drawWinChance();
  renderTree();
  showReview(moves, counts, ply => review.nodes[ply + 1].move, state.colours);
}

// The game as PGN, as the Ataxx tool chain writes it: its start's FEN, the result from the side
// that moves first (Ataxx's x); the tree's variations in parentheses.
function exportPgn() {
  // The result is the main line's: known where the board shows its end.
  const outcome = current === GameTree.lineThrough(tree.root).at(-1) ? state.outcome : null;
  const winner = outcome?.winner;
  const result = !outcome ? '*' : !winner ? '1/2-1/2' : winner === state.colours[0] ? '1-0' : '0-1';
  const tags = { Event: 'ataxx-zero', Date: new Date().toISOString().slice(0, 10).replaceAll('-', '.'), FEN: state.start_fen };
  if (state.game !== 'ataxx') tags.Variant = state.variant;
  $('pgn').value = pgnText(tags, tree.movetext(), result);
}

// A PGN's game becomes the game shown, its variations the tree's (comments and annotations left
// out); the server refuses a main line that is not legal, a variation when it is stepped into.
function importPgn() {
  let parsed;
  try {
    parsed = parsePgn($('pgn').value);
  } catch (error) {
    return show(`the PGN does not parse: ${error.message}`, true);
  }
  const { tags } = parsed;
  const message = { type: 'new', moves: mainLineOf(parsed) };
  if (tags.FEN) message.fen = tags.FEN;
  const variant = tags.Variant?.toLowerCase();
  if (variant) {
    message.variant = variant;
    const game = Object.values(games).find(g => g.variants.some(v => v.name === variant));
    if (game && !tags.FEN) message.game = game.name;
  }
  pendingPgn = parsed;  // its lines go to the tree of the game the server starts
  paused = true;  // the game is to study: the engine waits for Resume
  send(message);
}

function onThink(report) {
  if (report.version !== state.version) return;  // of a position left since
  showThink(report);
  if (report.ponder) return;
  think = { ...report, ply: state.history.length, gameNumber: state.game_number };  // its root is the state shown
  const wdl = wdlOf(report);
  if (wdl) {
    const [w, d, l] = wdl;
    current.chance = state.side === 0 ? w + d / 2 : l + d / 2;
    drawWinChance();
  }
  render();
}

// The games the server plays (its first message): name -> {title, boards, variants}.
let games = {};

function onGames(message) {
  games = Object.fromEntries(message.games.map(g => [g.name, g]));
  $('game').replaceChildren(...message.games.map(g => new Option(g.title, g.name)));
  $('level').replaceChildren(new Option('full strength', ''),
    ...message.levels.map(l => new Option(`Elo ${l.elo} (skill ${l.skill})`, String(l.elo))));
}

// The variant picker holds the variants of `game`: the one shown kept where it is one of them.
function offerVariants(game) {
  const variants = games[game]?.variants ?? [];
  const names = variants.map(v => v.name);
  if ([...$('variant').options].map(o => o.value).join() === names.join()) return;
  $('variant').replaceChildren(...variants.map(v => new Option(v.title, v.name)));
}

function newGame() {
  const game = $('game').value;
  think = null;
  show('');
  const board = $('board').value;  // a board's name, or a layout with gaps as its FEN
  if (!games[game]?.boards) {
    offerVariants(game);
    send({ type: 'new', game, variant: $('variant').value });
  } else {
    send(board.startsWith('fen:') ? { type: 'new', game, fen: board.slice(4) } : { type: 'new', game, board });
  }
}

function undo() {
  if (!state) return;
  const mixed = isEngine(0) !== isEngine(1);
  if (state.thinking) send({ type: 'stop' });
  // Against the engine, a take-back returns to the human's last turn.
  const plies = mixed && !isEngine(state.side) && state.history.length >= 2 ? 2 : 1;
  paused = mixed ? paused : true;
  send({ type: 'undo', plies });
}

// A refusal. A PGN refused starts no game; a line of the tree refused at a move (a variation
// imported with a move that is not legal there) loses that move and what follows it.
function onError(message) {
  show(message.message, true);
  goSentIn = null;
  if (message.of === 'new') pendingPgn = null;
  if (restoredTree) {  // the game shown could not be started again: the session's start, shown
    restoredTree = null;
    send({ type: 'new' });
  }
  if (lineSent && message.line_id === lineSent.id) {
    const refused = GameTree.lineThrough(lineSent.node)[message.ply + 1];
    if (refused?.parent) {
      GameTree.remove(refused);
      show(`${message.message}: removed from the tree`, true);
    }
    lineAnswered();
  }
  render();
}

export function startPlay() {
  const connect = () => {
    socket = new WebSocket(`ws://${location.host}/api/play`);
    socket.onopen = () => {
      goSentIn = ponderSentIn = null;  // a new session counts its versions afresh
      lineSent = lineWaiting = pendingPgn = null;
      if (state && tree) {  // the game shown, started again in the new session, its tree kept
        restoredTree = tree;
        send({ type: 'new', game: state.game, variant: state.variant, fen: state.start_fen, moves: state.history });
        if ($('analyze').checked) send({ type: 'analyze', on: true });
      }
      $('connection').textContent = 'connected';
      $('connection').dataset.state = 'open';
    };
    socket.onclose = () => {
      $('connection').textContent = 'disconnected: reconnecting…';
      $('connection').dataset.state = 'closed';
      setTimeout(connect, 1000);
    };
    socket.onmessage = event => {
      const message = JSON.parse(event.data);
      if (message.type === 'games') onGames(message);
      else if (message.type === 'state') onState(message);
      else if (message.type === 'think') onThink(message);
      else if (message.type === 'analysis') onAnalysis(message);
      else if (message.type === 'error') onError(message);
    };
  };
  connect();
  $('game').addEventListener('change', newGame);
  $('board').addEventListener('change', newGame);
  $('variant').addEventListener('change', newGame);
  $('new-game').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('stop').addEventListener('click', () => send({ type: 'stop' }));
  $('pass').addEventListener('click', () => send({ type: 'move', move: '0000' }));
  $('move-input').addEventListener('keydown', event => {
    if (event.key !== 'Enter' || !$('move-input').value.trim()) return;
    send({ type: 'move', move: $('move-input').value.trim() });
    $('move-input').value = '';
  });
  $('pause').addEventListener('click', () => { paused = !paused; render(); maybeEngineMove(); maybePonder(); });
  $('ponder').addEventListener('change', () => {
    if ($('ponder').checked) return maybePonder();
    send({ type: 'ponder', on: false });
    ponderSentIn = null;
  });
  for (const side of [0, 1]) $(`player-${side}`).addEventListener('change', () => { selected = null; render(); maybeEngineMove(); });
  $('heat').addEventListener('change', render);
  $('ownership').addEventListener('change', render);
  $('analyze').addEventListener('change', () => {
    send({ type: 'analyze', on: $('analyze').checked });
    if (!$('analyze').checked) {
      analysis = null;
      clearAnalysis('off');
      render();
    }
  });
  const steps = {
    Home: () => tree.root,
    ArrowLeft: () => current.parent,
    ArrowRight: () => current.children[0],
    End: () => GameTree.lineThrough(current).at(-1),
  };
  const step = key => state && goTo(steps[key]());
  $('tree-start').addEventListener('click', () => step('Home'));
  $('tree-back').addEventListener('click', () => step('ArrowLeft'));
  $('tree-forward').addEventListener('click', () => step('ArrowRight'));
  $('tree-end').addEventListener('click', () => step('End'));
  $('tree-promote').addEventListener('click', promoteLine);
  $('tree-delete').addEventListener('click', deleteLine);
  document.addEventListener('keydown', event => {
    if (!(event.key in steps) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest('input, textarea, select')) return;
    event.preventDefault();
    step(event.key);
  });
  $('pgn-export').addEventListener('click', exportPgn);
  $('review').addEventListener('click', startReview);
  $('pgn-import').addEventListener('click', importPgn);
  $('load-fen').addEventListener('click', () => {
    const fen = $('fen-input').value.trim();
    if (!fen) return;
    paused = true;
    send({ type: 'new', fen, variant: $('variant').value });  // the server knows the FEN's game
  });
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', () => {
      const field = $(button.dataset.copy);
      field.select();
      navigator.clipboard?.writeText(field.value).catch(() => document.execCommand('copy'));
    });
  }
  document.addEventListener('keydown', event => { if (event.key === 'Escape') { selected = null; render(); } });
}
