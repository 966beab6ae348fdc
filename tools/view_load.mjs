// The browser view's load figures on a run directory: how long the Run view takes to show every
// table and plot, the page's JavaScript heap, and the server's memory (resident set) before and
// after. Usage: node tools/view_load.mjs BINARY RUN_DIR [REPEATS]; SCREENSHOT=FILE saves the view.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [binary, runDir, repeats = '5'] = process.argv.slice(2);
if (!binary || !runDir) throw new Error('usage: node tools/view_load.mjs BINARY RUN_DIR [REPEATS]');

const server = spawn(binary, ['serve', '--port', '0', '--run-dir', runDir], { stdio: ['ignore', 'pipe', 'inherit'] });
const address = await new Promise(resolve => server.stdout.on('data', d => {
  const match = /serving (\S+)/.exec(String(d));
  if (match) resolve(match[1]);
}));
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;
const rssBefore = rss();

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--enable-precise-memory-info'] });
const times = [];
let heap = 0;
for (let i = 0; i < Number(repeats); i++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const start = Date.now();
  await page.goto(address);
  await page.click('[data-testid=tab-run]');
  // Shown: the summary, the loss and Elo plots with every row, the log.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=plot-loss]').dataset.points) > 0 &&
    Number(document.querySelector('[data-testid=plot-elo]').dataset.points) > 0 &&
    document.querySelector('[data-testid=log]').textContent.length > 0, null, { timeout: 60_000 });
  times.push(Date.now() - start);
  heap = await page.evaluate(() => performance.memory.usedJSHeapSize / 2 ** 20);
  if (process.env.SCREENSHOT && i === Number(repeats) - 1) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
  await page.close();
}
times.sort((a, b) => a - b);
console.log(`run view shown in ${times[Math.floor(times.length / 2)]} ms (median of ${times.length}; ${times.join(', ')} ms)`);
console.log(`page JS heap ${heap.toFixed(1)} MiB; server resident ${rssBefore.toFixed(1)} MiB at start, ${rss().toFixed(1)} MiB after`);
await browser.close();
server.kill('SIGTERM');
