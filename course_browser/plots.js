// Small SVG plotting helpers: axes, lines and points in data coordinates; and the loss
// charts of the training labs (uPlot, lazily loaded).
import { el } from "./dom.js";
import { fmt } from "./numbers.js";
import { svg } from "./svg.js";

export function scale([d0, d1], [r0, r1]) {
  const k = (r1 - r0) / (d1 - d0 || 1);
  return (v) => r0 + (v - d0) * k;
}

export function extent(values) {
  let lo = Math.min(...values), hi = Math.max(...values);
  if (lo === hi) { lo -= 1; hi += 1; }
  return [lo, hi];
}

/** Round tick values inside [lo, hi], about `count` of them: steps of 1, 2 or 5 × 10ⁿ. */
export function niceTicks([lo, hi], count = 4) {
  const raw = (hi - lo) / count || 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A tick as text: niceTicks made it round already, so it is written to the digits it has. */
const tickText = (v) => fmt(v, { digits: 12 });

/** A plot frame: returns {x, y, layer} where x/y map data to pixels. Its width follows
 * the figure's width on screen (up to `width`), so one unit of the drawing is one CSS
 * pixel and the axis text keeps its size on a phone instead of shrinking with the plot. */
export function frame(figure, { width = 480, height = 260, xDomain, yDomain, xLabel, yLabel, pad = 40, yFormat = tickText }) {
  const shown = figure.getBoundingClientRect().width;
  if (shown > 0) width = Math.max(280, Math.min(width, Math.round(shown)));
  figure.replaceChildren();
  figure.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const x = scale(xDomain, [pad, width - 12]);
  const y = scale(yDomain, [height - 28, 10]);
  const layer = svg("g");
  const axes = svg("g", { class: "course-plot__axes" });
  axes.append(svg("line", { x1: pad, y1: height - 28, x2: width - 12, y2: height - 28 }));
  axes.append(svg("line", { x1: pad, y1: 10, x2: pad, y2: height - 28 }));
  for (const v of niceTicks(xDomain, width < 400 ? 3 : 5)) {
    axes.append(svg("line", { x1: x(v), y1: height - 28, x2: x(v), y2: height - 24 }));
    axes.append(svg("text", { x: x(v), y: height - 12, "text-anchor": "middle" }, tickText(v)));
  }
  for (const v of niceTicks(yDomain, 4)) {
    axes.append(svg("line", { x1: pad - 4, y1: y(v), x2: pad, y2: y(v) }));
    axes.append(svg("text", { x: pad - 6, y: y(v) + 4, "text-anchor": "end" }, yFormat(v)));
  }
  if (xLabel) axes.append(svg("text", { x: width - 12, y: height - 30, "text-anchor": "end", class: "course-plot__label" }, xLabel));
  if (yLabel) axes.append(svg("text", { x: pad + 4, y: 20, class: "course-plot__label" }, yLabel));
  figure.append(axes, layer);
  return { x, y, layer };
}

export function polyline(points, x, y, className) {
  return svg("polyline", { points: points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(" "), class: className });
}

// ---- Loss charts (uPlot) -------------------------------------------------------------
// uPlot draws on a canvas, so it is loaded on first use (a chunk of its own, never on a
// page's critical path) and its colours are read from the course's CSS custom properties
// (--course-plot-*, one set per palette); a palette switch redraws every chart. The axis
// titles are HTML around the canvas: the text is themed by CSS and selectable.

let uPlotLoading = null;
const loadUPlot = () => {
  uPlotLoading = uPlotLoading || import("uplot").then((m) => m.default, (error) => {
    uPlotLoading = null; // a later chart tries again
    throw error;
  });
  return uPlotLoading;
};
const charts = new Set();
let paletteWatch = null;

/** The figure a loss chart is drawn in: hidden (no empty box) until `lossChart` draws. */
export function lossFigure(className = "") {
  const chart = el("div", { className: "course-lossplot__chart" });
  return el("div", { className: `course-lossplot ${className}`.trim(), role: "img", hidden: true, "aria-label": "Loss curve: not trained yet" },
    el("div", { className: "course-lossplot__y", "aria-hidden": "true", textContent: "loss (log scale)" }),
    chart,
    el("div", { className: "course-lossplot__x", "aria-hidden": "true", textContent: "step" }),
    el("div", { className: "course-lossplot__legend" }));
}

/** Draw (or update) the loss curves in a `lossFigure`: step against loss on a log scale.
 * `curves` is [{label, losses, dashed?}]; with more than one, a legend names them. Shows
 * the figure and writes its summary at once; the chart follows once uPlot has loaded. */
export function lossChart(figure, curves, steps) {
  figure.hidden = false;
  const [first, ...others] = curves;
  const rest = others.map((c) => `; ${c.label}: from ${fmt(c.losses[0])} to ${fmt(c.losses.at(-1))}`).join("");
  figure.setAttribute("aria-label", `Loss curve: ${first.losses.length} steps, from ${fmt(first.losses[0])} to ${fmt(first.losses.at(-1))}${rest}.`);
  const state = figure.courseChart || { figure, uplot: null, resize: null };
  figure.courseChart = state;
  Object.assign(state, { curves, steps });
  return loadUPlot().then((uPlot) => {
    if (!figure.isConnected) return;
    state.uPlot = uPlot;
    const data = chartData(curves);
    const same = state.uplot && state.drawnLabels === curves.map((c) => c.label).join("\n") && state.drawnSteps === steps;
    if (same) state.uplot.setData(data);
    else createChart(state);
    watchPalette();
  }).catch(() => {
    // offline before the chart's code was cached: the summary stays, in words
    figure.querySelector(".course-lossplot__chart").textContent = figure.getAttribute("aria-label");
  });
}

function chartData(curves) {
  const n = Math.max(...curves.map((c) => c.losses.length));
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  // a log scale has no zero: a loss of exactly 0 is drawn at 1e−12; a missing one is a gap
  return [xs, ...curves.map((c) => xs.map((_, i) => (typeof c.losses[i] === "number" ? Math.max(c.losses[i], 1e-12) : null)))];
}

const DASHES = [[7, 5], [2, 4], [12, 4, 2, 4]];

const isPowerOfTen = (v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;

function chartSize(box) {
  const width = Math.max(160, Math.floor(box.clientWidth || 320));
  return { width, height: width < 420 ? 200 : 240 };
}

function createChart(state) {
  const { figure, curves, steps, uPlot } = state;
  destroyChart(state);
  const box = figure.querySelector(".course-lossplot__chart");
  const css = getComputedStyle(figure);
  const color = (name) => css.getPropertyValue(`--course-plot-${name}`).trim();
  const text = color("text"), grid = color("grid"), font = `12px ${css.fontFamily}`;
  const axis = { stroke: text, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: text, width: 1, size: 4 }, border: { show: true, stroke: text, width: 1 } };
  // the first curve solid in its own colour; the others in the second, each dashed its own way
  const series = curves.map((c, i) => ({ label: c.label, stroke: color(i === 0 ? "mine" : "reference"), width: i === 0 ? 2.5 : 2,
    dash: c.dashed ? DASHES[(i - 1 + DASHES.length) % DASHES.length] : undefined, points: { show: false } }));
  const uplot = new uPlot({
    ...chartSize(box),
    scales: { x: { time: false, auto: false, range: [0, steps] }, y: { distr: 3, log: 10 } },
    // a grid line at each power of ten only (the ticks between them stay)
    axes: [{ ...axis, size: 32 }, { ...axis, size: 46, grid: { ...axis.grid, filter: (_u, splits) => splits.map((v) => (isPowerOfTen(v) ? v : null)) } }],
    series: [{ label: "step" }, ...series],
    legend: { show: curves.length > 1, live: false, mount: (_u, table) => figure.querySelector(".course-lossplot__legend").append(table),
      markers: { width: 3, dash: (u, i) => (u.series[i].dash ? "dashed" : "solid") } },
    cursor: { show: false, drag: { x: false, y: false } },
  }, chartData(curves), box);
  state.uplot = uplot;
  state.drawnSteps = steps;
  state.drawnLabels = curves.map((c) => c.label).join("\n"); // a new run's legend is a new chart
  state.resize = new ResizeObserver(() => {
    const size = chartSize(box);
    if (state.uplot && (size.width !== state.uplot.width || size.height !== state.uplot.height)) state.uplot.setSize(size);
  });
  state.resize.observe(box);
  charts.add(state);
}

function destroyChart(state) {
  state.resize?.disconnect();
  state.uplot?.destroy();
  state.uplot = null;
  charts.delete(state);
}

/** Material switches the palette on <body data-md-color-scheme>: canvas colours are
 * read once, so redraw each chart still on the page (and forget the ones left behind). */
function watchPalette() {
  if (paletteWatch) return;
  paletteWatch = new MutationObserver(() => {
    for (const state of [...charts]) {
      if (state.figure.isConnected) createChart(state);
      else destroyChart(state);
    }
  });
  paletteWatch.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
}
