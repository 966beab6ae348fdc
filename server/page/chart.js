// uPlot charts by element id: made on first data, updated after. data-points on the element
// says how many x values it holds (the browser tests read it).
const charts = {};

export function plot(id, options, data) {
  const target = document.getElementById(id);
  target.dataset.points = data[0].length;
  if (!charts[id]) {
    const width = Math.max(320, target.clientWidth || 480);
    charts[id] = new uPlot({ width, height: 240, ...options, scales: { x: { time: false }, ...options.scales } }, data, target);
  } else {
    charts[id].setData(data);
  }
}
