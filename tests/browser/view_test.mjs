// The browser view in a real browser: Debian's chromium driven by playwright-core. Starts
// `ataxx-zero serve` on a tiny run, plays on it as a user would and saves a screenshot of each
// view. Environment: ATAXX_ZERO_BINARY (the binary), ATAXX_SOURCE_DIR (for configs/tiny.yaml),
// SCREENSHOT_DIR (where the screenshots go), CHROMIUM (default /usr/bin/chromium).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const binary = process.env.ATAXX_ZERO_BINARY;
const source = process.env.ATAXX_SOURCE_DIR;
const shots = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'ataxx-zero-screenshots');
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
for (const [name, path] of [['ATAXX_ZERO_BINARY', binary], ['configs/tiny.yaml', source && join(source, 'configs/tiny.yaml')], ['chromium', browserPath]])
  if (!path || !existsSync(path)) throw new Error(`${name} not found (${path}): run tools/setup.sh`);
mkdirSync(shots, { recursive: true });

const run = mkdtempSync(join(tmpdir(), 'ataxx-view-run-'));
let server, trainer, browser, page, address;

function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn(binary, ['serve', '--port', '0', '--run-dir', run], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    server.stdout.on('data', chunk => {
      output += chunk;
      const match = /serving (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    server.on('exit', code => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

async function shoot(name) {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

// Sets the players first (a game that starts with an engine to move starts at once), then the
// rest: a game, board or variant that changes starts a new game, and so does the button when
// none changes. Returns once the server has started every one of them.
async function newGame(options) {
  const number = async () => Number(await page.$eval('[data-testid=board-svg]', e => e.dataset.gameNumber));
  const before = await number();
  let started = 0;
  const ids = Object.keys(options).sort((a, b) => b.startsWith('player') - a.startsWith('player'));
  for (const id of ids) {
    // selectOption fires 'change' even for the value already chosen, and the page's change
    // starts a game: a choice already made is left alone, so that every start is counted.
    if (await page.inputValue(`[data-testid=${id}]`) === options[id]) continue;
    await page.selectOption(`[data-testid=${id}]`, options[id]);
    started += ['game', 'board', 'variant'].includes(id);
  }
  if (!started) {
    await page.click('[data-testid=new-game]');
    started = 1;
  }
  await page.waitForFunction(n => Number(document.querySelector('[data-testid=board-svg]').dataset.gameNumber) >= n, before + started);
}

const cell = name => `[data-testid=board-svg] [data-name="${name}"]`;
const plies = () => page.$eval('[data-testid=moves]', e => e.value.split(' ').filter(t => !/^\d+\.$/.test(t) && t).length);
const chartPoints = id => page.$eval(`[data-testid=${id}]`, e => Number(e.dataset.points ?? 0));
const pieces = () => page.$$eval('[data-testid=board-svg] [data-man]', men => men.length);

before(async () => {
  // The run's config, written first: its plots grow while the page is open (`train` starts later).
  // Long enough that the page sees them grow between two polls on a fast machine (tiny.yaml's
  // generations take about a second each there); the trainer is killed once the test has seen it.
  writeFileSync(join(run, 'config.yaml'),
    readFileSync(join(source, 'configs/tiny.yaml'), 'utf8').replace('max_generations: 3', 'max_generations: 60'));
  address = await startServer();
  browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(address);
  await page.waitForSelector('[data-testid=connection][data-state=open]');
});

after(async () => {
  await browser?.close();
  trainer?.kill('SIGKILL');
  server?.kill('SIGTERM');
  rmSync(run, { recursive: true, force: true });
  rmSync(`${run}.train.log`, { force: true });
});

test('a human move on 7x7 is played and the engine answers', async () => {
  await newGame({ game: 'ataxx', board: '7x7', 'player-0': 'human', 'player-1': 'engine', 'budget-kind': 'visits' });
  await page.fill('[data-testid=budget]', '40');
  await page.waitForSelector(`${cell('a7')} [data-man=x]`);
  await page.click(cell('a7'));
  await page.waitForSelector(`${cell('b6')}.clone`);  // a clone target, told apart from jumps
  assert.ok(await page.$(`${cell('c5')}.jump`), 'c5 is a jump from a7');
  await page.click(cell('b6'));
  await page.waitForFunction(() => /o to move|x to move/.test(document.querySelector('[data-testid=status]').textContent)
    && document.querySelector('[data-testid=moves]').value.split(' ').filter(t => t && !/^\d+\.$/.test(t)).length >= 2);
  assert.equal(await plies(), 2);
  assert.equal(await page.$eval(`${cell('b6')} [data-man]`, e => e.dataset.man), 'x');
  assert.ok(await page.$('[data-testid=board-svg] .last-to'), 'the last move is marked');
  await shoot('play-7x7');
});

test('with "think on your time" the engine searches while the player thinks, and keeps that tree', async () => {
  await newGame({ game: 'ataxx', board: '7x7', 'player-0': 'human', 'player-1': 'engine', 'budget-kind': 'visits' });
  await page.fill('[data-testid=budget]', '40');
  await page.check('[data-testid=ponder]');
  const summary = () => page.$eval('[data-testid=think-summary]', e => ({ ...e.dataset, text: e.textContent }));
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=think-summary]').dataset;
    return s.ponder === 'true' && Number(s.nodes) >= 200;
  });
  assert.match((await summary()).text, /^pondering on your time/);
  await page.fill('[data-testid=move-input]', 'b6');
  await page.press('[data-testid=move-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=think-summary]').textContent.startsWith('played'));
  const played = await summary();
  assert.ok(Number(played.reused) > 0, `the reply kept the pondered tree: ${played.text}`);
  assert.match(played.text, /kept from before/);
  await page.uncheck('[data-testid=ponder]');
});

test('the engine plays at the level picked, weakest first', async () => {
  await newGame({ game: 'ataxx', board: '7x7', 'player-0': 'human', 'player-1': 'engine', 'budget-kind': 'visits' });
  const levels = await page.$$eval('[data-testid=level] option', options => options.map(o => o.value));
  assert.equal(levels[0], '', 'full strength first');
  assert.ok(levels.length >= 3, `levels offered: ${levels}`);
  await page.selectOption('[data-testid=level]', levels[1]);  // the weakest: one visit a move
  await page.fill('[data-testid=budget]', '400');
  for (const [from, to, ply] of [['a7', 'b6', 2], ['g1', 'f2', 4]]) {
    await page.waitForSelector(`${cell(from)} [data-man=x]`);
    await page.click(cell(from));
    await page.click(cell(to));
    await page.waitForFunction(n => document.querySelector('[data-testid=moves]').value.split(' ')
      .filter(t => t && !/^\d+\.$/.test(t)).length >= n, ply);
    const nodes = Number(await page.$eval('[data-testid=think-summary]', e => e.dataset.nodes));
    assert.ok(nodes >= 1 && nodes <= 8, `the level searched ${nodes} nodes, not its one visit (a round's leaves at most)`);
  }
  await shoot('play-level');
  await page.selectOption('[data-testid=level]', '');
});

test('an illegal click is refused by the server with a message', async () => {
  const fen = await page.inputValue('[data-testid=fen]');
  await page.click(cell('a7'));
  await page.click(cell('d4'));  // three squares away: neither a clone nor a jump
  await page.waitForFunction(() => document.querySelector('[data-testid=message]').textContent.length > 0);
  const message = await page.textContent('[data-testid=message]');
  assert.match(message, /a7d4|not a legal move|distance/);
  assert.equal(await page.inputValue('[data-testid=fen]'), fen, 'the position did not change');
  await shoot('illegal-move');
  await page.fill('[data-testid=move-input]', 'g1g4');  // typed: three cells is no move either
  await page.press('[data-testid=move-input]', 'Enter');
  await page.waitForFunction(() => /g1g4/.test(document.querySelector('[data-testid=message]').textContent));
  assert.equal(await page.inputValue('[data-testid=fen]'), fen);
});

test('a human move on the hexagon is played and answered', async () => {
  await newGame({ game: 'ataxx', board: 'hexagon' });
  await page.waitForSelector('[data-testid=board-svg][data-board=hexagon]');
  const cells = await page.$$eval('[data-testid=board-svg] [data-cell]', c => c.length);
  assert.equal(cells, 61);
  const from = await page.$eval('[data-testid=board-svg] [data-man=x]', e => e.closest('[data-cell]').dataset.name);
  await page.click(cell(from));
  const to = await page.$eval('[data-testid=board-svg] .clone', e => e.dataset.name);
  await page.click(cell(to));
  await page.waitForFunction(() => document.querySelector('[data-testid=moves]').value.split(' ').filter(t => t && !/^\d+\.$/.test(t)).length >= 2);
  assert.equal(await page.$eval(`${cell(to)} [data-man]`, e => e.dataset.man), 'x');
  await shoot('play-hexagon');
});

test('a board with gaps is drawn and played', async () => {
  await newGame({ game: 'ataxx', board: 'fen:x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1', 'player-0': 'human', 'player-1': 'engine' });
  assert.equal(await page.$$eval('[data-testid=board-svg] [data-man="#"]', gaps => gaps.length), 0, 'gaps are no men');
  assert.equal(await page.$$eval('[data-testid=board-svg] .gap', gaps => gaps.length), 5);
  await page.click(cell('a7'));
  assert.equal(await page.$(`${cell('c5')}.jump`), null, 'no jump onto a gap');
  await page.click(cell('b6'));
  await page.waitForFunction(() => document.querySelector('[data-testid=moves]').value.split(' ').filter(t => t && !/^\d+\.$/.test(t)).length >= 2);
});

test('the live search info updates while the engine thinks', async () => {
  await newGame({ game: 'ataxx', board: '7x7', 'player-0': 'engine', 'player-1': 'human', 'budget-kind': 'movetime' });
  await page.fill('[data-testid=budget]', '3000');
  await newGame({});
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=think-summary]').dataset.nodes) > 0);
  const first = Number(await page.$eval('[data-testid=think-summary]', e => e.dataset.nodes));
  await page.waitForFunction(n => Number(document.querySelector('[data-testid=think-summary]').dataset.nodes) > n, first);
  assert.ok(await page.$$eval('[data-testid=candidates] tbody tr', rows => rows.length) > 1);
  assert.ok(await page.$('[data-testid=board-svg] .heat'), 'the policy heat map is drawn');
  assert.match(await page.textContent('[data-testid=think-summary]'), /\(win \d+\.\d%, lead [+-]\d+\.\d men\)/,
    "the search's chance to win and expected lead");
  await shoot('think');
  await page.waitForFunction(() => document.querySelector('[data-testid=think-summary]').textContent.startsWith('played'));
  assert.equal(await chartPoints('plot-winrate'), 1, "x's chance to win is drawn at the ply searched");
});

test('engine against engine plays to the end, also after a go crossed a new game', async () => {
  await page.selectOption('[data-testid=budget-kind]', 'visits');
  await page.fill('[data-testid=budget]', '16');
  await newGame({ game: 'ataxx', board: '7x7', 'player-0': 'human', 'player-1': 'human' });
  await page.fill('[data-testid=move-input]', 'b6');
  await page.press('[data-testid=move-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.startsWith('o to move'));
  // o becomes the engine (its go leaves at once), and before the answer comes a 4x4 game starts
  // with both sides engines: a go sent in the 7x7 game's last state reaches the new game. It once
  // searched there beside the page's own go, every move twice, and drew "the game is over" at the
  // end (10 of 15 tries); each go names the state it was sent in now.
  await page.evaluate(async () => {
    const choose = (id, value) => {
      const select = document.querySelector(`[data-testid=${id}]`);
      select.value = value;
      select.dispatchEvent(new Event('change'));
    };
    choose('player-1', 'engine');
    await new Promise(resolve => setTimeout(resolve, 30));
    choose('player-0', 'engine');
    choose('board', '4x4');
  });
  await page.waitForSelector('[data-testid=board-svg][data-board="4x4"]');
  await page.waitForSelector('[data-testid=status][data-over=true]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid=status]'), /Game over: (x wins|o wins|draw)/);
  await page.waitForTimeout(500);  // for a go still on its way
  assert.equal(await page.textContent('[data-testid=message]'), '', 'no error after the last move');
  await shoot('engine-vs-engine');
});

test('a Schataxx drop is dragged from the stock', async () => {
  await newGame({ game: 'schataxx', variant: 'schataxx', 'player-0': 'human', 'player-1': 'engine', 'budget-kind': 'visits' });
  await page.fill('[data-testid=budget]', '16');
  await page.waitForFunction(() => /^white to move/.test(document.querySelector('[data-testid=status]').textContent));
  await page.locator('[data-testid=stock-0-Q]').dragTo(page.locator(cell('b2')));
  await page.waitForFunction(() => document.querySelector('[data-testid=moves]').value.includes('Q@b2'));
  assert.equal(await page.$eval(`${cell('b2')} [data-man]`, e => e.dataset.man), 'Q');
  await page.waitForFunction(() => document.querySelector('[data-testid=moves]').value.split(' ').filter(t => t && !/^\d+\.$/.test(t)).length >= 2);
  assert.equal(await chartPoints('plot-winrate'), 1, "a new game's chart holds only its own search (ply 1)");
  await shoot('play-schataxx');
});

test('a PGN imported is analysed: its lines, one shown on the board, ownership and the win chance', async () => {
  await newGame({ game: 'ataxx', board: '7x7', 'player-0': 'human', 'player-1': 'human' });
  await page.fill('[data-testid=pgn]',
    '[Event "study"]\n[FEN "xxxo3/xxoo3/xxo4/xo5/7/7/o5x x 0 1"]\n\n1. c4 {a clone} e6 2. c7e7!? (2. d5 e5) a1b3 *\n');
  await page.click('[data-testid=pgn-import]');
  await page.waitForFunction(() => document.querySelector('[data-testid=moves]').value === '1. c4 e6 2. c7e7 a1b3');
  await page.check('[data-testid=analyze]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=lines] tbody tr').length >= 2);
  const owned = await page.$$eval('[data-testid=board-svg] [data-owner]', cells => cells.length);
  assert.ok(owned >= 40, `ownership shown on ${owned} of 49 cells`);
  await page.hover('[data-testid=lines] tbody tr:first-child');
  await page.waitForSelector('[data-testid=board-svg] .pv-label');
  await page.click('[data-testid=lines] tbody tr:first-child');  // pinned: shown with the pointer elsewhere
  await page.mouse.move(0, 0);
  assert.ok(await chartPoints('plot-winrate') >= 1, 'the analysis feeds the win chance');
  await shoot('analysis');
  assert.ok(await page.$('[data-testid=board-svg] .pv-label'), 'the line stays shown while the search goes on');
  await page.click('[data-testid=pgn-export]');
  const pgn = await page.inputValue('[data-testid=pgn]');
  assert.match(pgn, /\[FEN "xxxo3\/xxoo3\/xxo4\/xo5\/7\/7\/o5x x 0 1"\]/);
  assert.match(pgn, /1\. c4 e6 2\. c7e7 \(2\. d5 e5\) 2\.\.\. a1b3 \*/, 'the variation kept');
  await page.click('[data-testid=review]');
  await page.waitForSelector('[data-testid=review-summary][data-done=true]', { timeout: 120000 });
  assert.equal(await page.$$eval('[data-testid=review-moves] tbody tr', rows => rows.length), 4, 'a row a move');
  assert.match(await page.textContent('[data-testid=review-summary]'), /x: \d+ blunders?, \d+ mistakes?; o: /);
  await shoot('review');
  await page.fill('[data-testid=pgn]', '1. b6 b6 *');  // the second b6 is not o's
  await page.click('[data-testid=pgn-import]');
  await page.waitForFunction(() => /move 2 \('b6'\)/.test(document.querySelector('[data-testid=message]').textContent));
  assert.equal(await page.inputValue('[data-testid=moves]'), '1. c4 e6 2. c7e7 a1b3', 'the game shown stays');
  await page.uncheck('[data-testid=analyze]');
  await page.click('[data-testid=pause]');  // resumed, and o the engine again, for the tests after
  await page.selectOption('[data-testid=player-1]', 'engine');
});

// The analysis board's tree: a move played anywhere branches; lines are stepped through, made the
// main line and deleted; a variation with a move that is not legal loses it when stepped into.
test('the game branches: lines stepped through, promoted, deleted and exported', async () => {
  await page.selectOption('[data-testid=player-1]', 'human');
  await page.fill('[data-testid=pgn]', '[FEN "xxxo3/xxoo3/xxo4/xo5/7/7/o5x x 0 1"]\n\n1. c4 e6 2. c7e7 (2. d5 a1a3) a1b3 *\n');
  await page.click('[data-testid=pgn-import]');
  const moves = value => page.waitForFunction(v => document.querySelector('[data-testid=moves]').value === v, value);
  const tree = key => page.$eval('[data-testid=move-tree]', (e, k) => Number(e.dataset[k]), key);
  const move = text => page.locator('[data-testid=move-tree] .move', { hasText: new RegExp(`^${text}$`) });
  await moves('1. c4 e6 2. c7e7 a1b3');
  assert.deepEqual([await tree('moves'), await tree('variations')], [6, 1]);
  await move('d5').click();
  await moves('1. c4 e6 2. d5');
  assert.equal(await page.textContent('[data-testid=move-tree] .move.current'), 'd5');
  await page.keyboard.press('ArrowLeft');
  await moves('1. c4 e6');
  await page.click('[data-testid=tree-forward]');  // along the main line
  await moves('1. c4 e6 2. c7e7');
  await page.click('[data-testid=tree-back]');
  await page.fill('[data-testid=move-input]', 'f2');  // another move here: a new variation
  await page.press('[data-testid=move-input]', 'Enter');
  await moves('1. c4 e6 2. f2');
  assert.deepEqual([await tree('moves'), await tree('variations')], [7, 2]);
  await shoot('variations');
  await page.click('[data-testid=tree-delete]');
  await moves('1. c4 e6');
  assert.deepEqual([await tree('moves'), await tree('variations')], [6, 1], 'the line deleted, the others kept');
  await move('a1a3').click();
  await moves('1. c4 e6 2. d5 a1a3');
  await page.click('[data-testid=tree-promote]');
  await page.click('[data-testid=pgn-export]');
  assert.match(await page.inputValue('[data-testid=pgn]'), /1\. c4 e6 2\. d5 \(2\. c7e7 a1b3\) 2\.\.\. a1a3 \*/);
  await page.keyboard.press('Home');
  await moves('');
  await page.keyboard.press('End');  // the main line's end: the promoted one
  await moves('1. c4 e6 2. d5 a1a3');

  await page.fill('[data-testid=pgn]', '1. b6 f6 (1... b6) *');  // o has no man beside b6
  await page.click('[data-testid=pgn-import]');
  await moves('1. b6 f6');
  await move('b6').nth(1).click();
  await page.waitForFunction(() => /removed from the tree/.test(document.querySelector('[data-testid=message]').textContent));
  assert.deepEqual([await tree('moves'), await tree('variations')], [2, 0]);
  assert.equal(await page.inputValue('[data-testid=moves]'), '1. b6 f6', 'the game shown stays');
  await page.click('[data-testid=pause]');
  await page.selectOption('[data-testid=player-1]', 'engine');
});

test('two tabs play at once, and one closed while its engine thinks leaves the other playing', async () => {
  const second = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await second.goto(address);
  await second.waitForSelector('[data-testid=connection][data-state=open]');
  await second.selectOption('[data-testid=budget-kind]', 'movetime');
  await second.fill('[data-testid=budget]', '20000');
  await second.selectOption('[data-testid=player-0]', 'engine');  // x to move: it thinks at once
  await second.waitForFunction(() => Number(document.querySelector('[data-testid=think-summary]').dataset.nodes) > 0);
  await second.close();
  await newGame({ game: 'ataxx', board: '6x6', 'player-0': 'human', 'player-1': 'engine', 'budget-kind': 'visits' });
  await page.fill('[data-testid=budget]', '30');
  const from = await page.$eval('[data-testid=board-svg] [data-man=x]', e => e.closest('[data-cell]').dataset.name);
  await page.click(cell(from));
  await page.click(cell(await page.$eval('[data-testid=board-svg] .clone', e => e.dataset.name)));
  await page.waitForFunction(() => document.querySelector('[data-testid=moves]').value.split(' ').filter(t => t && !/^\d+\.$/.test(t)).length >= 2);
});

test("a run's plots appear and grow while it trains", async () => {
  await page.click('[data-testid=tab-run]');
  const log = openSync(`${run}.train.log`, 'w');
  trainer = spawn(binary, ['train', '--run-dir', run], { stdio: ['ignore', log, log] });
  trainer.on('exit', code => { if (code) console.error(readFileSync(`${run}.train.log`, 'utf8')); });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=plot-loss]').dataset.points ?? 0) >= 1, null, { timeout: 120_000 })
    .catch(async error => {
      throw new Error(`${error.message}; the page says: ${await page.textContent('[data-testid=run-summary]')}; the run: ${readFileSync(`${run}.train.log`, 'utf8')}`);
    });
  const first = await chartPoints('plot-loss');
  await page.waitForFunction(n => Number(document.querySelector('[data-testid=plot-loss]').dataset.points) > n, first, { timeout: 120_000 });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=plot-elo]').dataset.points ?? 0) >= 1, null, { timeout: 120_000 });
  assert.ok(await chartPoints('plot-selfplay') >= 1, 'self-play throughput is plotted');
  assert.ok(await chartPoints('plot-selfplay-games') >= 1, "self-play's game lengths and draws are plotted");
  assert.ok(await page.$('[data-testid=live-svg] [data-cell]'), 'the live self-play game is drawn');
  assert.ok(await page.$$eval('[data-testid=plot-loss] canvas', c => c.length) >= 1);
  await shoot('run');
  // A finished game from the run's chunks, position by position.
  await page.waitForFunction(() => document.querySelector('[data-testid=replay-source]').options.length > 1);
  const chunk = await page.$eval('[data-testid=replay-source]', s => s.options[1].value);
  await page.selectOption('[data-testid=replay-source]', chunk);
  await page.waitForFunction(() => /^game 0 of \d+ recorded in the chunk: position \d+ of \d+ recorded; its search played \S+/
    .test(document.querySelector('[data-testid=live-status]').textContent));
  assert.ok(await page.$('[data-testid=live-svg] [data-man]'), 'the recorded position is drawn');
  const recorded = Number(/^game 0 of (\d+)/.exec(await page.$eval('[data-testid=live-status]', e => e.textContent))[1]);
  assert.equal(await page.$eval('[data-testid=replay-game]', e => e.max), String(recorded - 1), 'numbers only the recorded games');
});
