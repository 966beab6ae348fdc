// The page's entry: two views, Play and (with --run-dir) Run.
import { startPlay } from './play.js';
import { startRun } from './run.js';

function showView(name) {
  for (const view of document.querySelectorAll('.view')) view.hidden = view.id !== `${name}-view`;
  for (const tab of document.querySelectorAll('nav button')) tab.classList.toggle('active', tab.dataset.view === name);
  window.dispatchEvent(new Event('resize'));
}

for (const tab of document.querySelectorAll('nav button')) tab.addEventListener('click', () => showView(tab.dataset.view));
startPlay();
startRun(() => { document.querySelector('[data-view="run"]').hidden = false; });
