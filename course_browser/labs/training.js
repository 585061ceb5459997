// Train MLP(2, [8, 8, 1]) on the eight points, in the worker, a few steps per
// call: the loss curve grows as it trains and the page never freezes. Then the
// learned decision boundary (with axes and a legend), and the network itself with a
// draggable test point. Each picture shows once there is something in it. A new run
// clears the last run's pictures while it trains, and the earlier runs' loss curves
// stay on the chart, dashed, so two learning rates can be compared; the learning rate
// is kept across reloads.
import { button, el, inserter, liveStatus, mountOnce, onBusyClick } from "../dom.js";
import { fmt } from "../numbers.js";
import { svg } from "../svg.js";
import { boundaryLegend, drawDecisionBoundary, sign } from "../boundary.js";
import { lossChart, lossFigure } from "../plots.js";
import { python } from "../runtime.js";
import { rememberInput } from "../lab-input.js";

const STEPS = 120;
const CHUNK = 10;
const KEPT = 3; // earlier runs on the chart: more would be a tangle

export function mount(root) {
  if (!mountOnce(root)) return;
  const ctx = {
    root,
    add: inserter(root, root.firstChild), // each part's elements at the top, in the parts' order
    grid: null, // the trained model's decision boundary, once there is one
    point: [0.5, 0.5], // the test point
    view: null, // the boundary as drawn (drawDecisionBoundary): scales, domain, marker
    runs: [], // the earlier runs, oldest first: {label, losses}
    runCount: 0,
  };
  for (const part of [controls, lossCurve, pictures, testPoint, trainer]) part(ctx);
}

/** The toolbar (learning rate, Train, progress) and the status line under it. */
function controls(ctx) {
  const bar = el("div", { className: "course-toolbar" });
  const train = button(`Train ${STEPS} steps`, "md-button--primary");
  const progressBar = el("progress", { max: STEPS, value: 0, "aria-label": "Training progress" });
  // the learning rate: too small crawls, too large overshoots and the network saturates
  const rate = el("select", { "aria-label": "Learning rate" });
  for (const value of ["0.001", "0.01", "0.05", "0.2", "2"]) rate.append(new Option(`learning rate ${value}`, value, false, value === "0.05"));
  bar.append(rate, train, progressBar);
  const status = liveStatus("p", "course-lab__status",
    "Press Train: the network learns in the background, and the loss curve grows as it goes.");
  ctx.add(bar, status);
  Object.assign(ctx, { train, progressBar, rate, status });
  rememberInput(ctx.root, "rate", rate);
}

/** The loss chart: this run's curve, and the earlier runs' dashed behind it. */
function lossCurve(ctx) {
  const lossPlot = lossFigure("course-training__loss"); // each picture shows once there is something to draw
  ctx.add(lossPlot);
  ctx.drawLoss = (label, losses) => lossChart(lossPlot,
    [{ label, losses }, ...[...ctx.runs].reverse().map((run) => ({ ...run, dashed: true }))], STEPS);
}

/** The trained model's pictures, hidden until there is one: its decision boundary with
 * the test point, the network itself, and a line that reads the test point's class. */
function pictures(ctx) {
  const boundary = svg("svg", { class: "course-plot course-training__boundary", role: "application", tabindex: "0",
    "aria-label": "Decision boundary. Drag the test point, or move it with the arrow keys." });
  const boundaryFigure = el("div", { className: "course-training__boundary-figure" }, boundary, boundaryLegend());
  const network = svg("svg", { class: "course-plot course-training__network", role: "img", "aria-label": "The network: train first" });
  // what the picture's marks mean, on screen for everyone (the svg's label says it to a screen reader)
  const key = el("figcaption", { "aria-hidden": "true", textContent: "Inputs x₁, x₂ on the left, the output on the right. "
    + "A line is a weight: blue positive, red negative, thicker stronger. A circle is a neuron's value at the test point." });
  const networkFigure = el("figure", { className: "course-training__network-figure", hidden: true }, network, key);
  const pictures = el("div", { className: "course-training__pictures", hidden: true }, boundaryFigure, networkFigure);
  const readout = liveStatus("p", "course-lab__status");
  ctx.add(pictures, readout);
  Object.assign(ctx, { boundary, network, pictures, readout });
}

/** Draw the network: edges by weight (colour for sign, width for size), neurons by
 * activation at the test point. */
function drawNetwork({ network, readout }, net) {
  const width = 420, height = 300;
  network.closest("figure").hidden = false;
  network.replaceChildren();
  network.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const layers = net.activations;
  const colX = (i) => 30 + i * ((width - 60) / (layers.length - 1));
  const rowY = (j, n) => height / 2 + (j - (n - 1) / 2) * Math.min(34, (height - 30) / n);
  const maxW = Math.max(...net.weights.flat(2).map(Math.abs), 1e-9);
  for (const [li, layer] of net.weights.entries()) {
    for (const [j, ws] of layer.entries()) {
      for (const [k, w] of ws.entries()) {
        network.append(svg("line", { x1: colX(li), y1: rowY(k, layers[li].length), x2: colX(li + 1), y2: rowY(j, layers[li + 1].length),
          class: sign(w, "stroke"), "stroke-width": (0.3 + 3 * Math.abs(w) / maxW).toFixed(2), "stroke-opacity": 0.7 }));
      }
    }
  }
  for (const [li, acts] of layers.entries()) {
    for (const [j, a] of acts.entries()) {
      const strength = li === 0 ? Math.min(1, Math.abs(a) / 3) : Math.abs(a);
      network.append(svg("circle", { cx: colX(li), cy: rowY(j, acts.length), r: 10, stroke: "currentColor",
        "fill-opacity": (0.1 + 0.9 * strength).toFixed(2), class: `course-training__neuron ${sign(a)}` }));
    }
  }
  const out = layers.at(-1)[0];
  const verdict = `The test point (${fmt(net.input[0])}, ${fmt(net.input[1])}) gets output ${fmt(out)}: class ${out >= 0 ? "+1" : "−1"}.`;
  readout.textContent = verdict;
  network.setAttribute("aria-label", `The network 2 → 8 → 8 → 1: blue edges are positive weights, red negative, thicker is stronger. ${verdict}`);
}

/** The test point on the boundary, dragged or moved with the arrow keys; each move asks
 * the trained network about it (the newest answer wins). */
function testPoint(ctx) {
  const { boundary } = ctx;
  let probeTicket = 0;
  ctx.probe = async () => {
    const mine = ++probeTicket;
    const net = await python().labCall("train_network", ctx.point, { timeoutMs: 5000 });
    if (mine === probeTicket && net && net.weights) drawNetwork(ctx, net);
  };
  let dragging = false;
  boundary.addEventListener("pointerdown", (e) => { dragging = true; boundary.setPointerCapture(e.pointerId); movePointTo(ctx, e); });
  boundary.addEventListener("pointermove", (e) => { if (dragging) movePointTo(ctx, e); });
  boundary.addEventListener("pointerup", () => { dragging = false; });
  boundary.addEventListener("keydown", (e) => {
    const step = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, 0.1], ArrowDown: [0, -0.1] }[e.key];
    if (!step || !ctx.view) return;
    e.preventDefault();
    setPoint(ctx, [ctx.point[0] + step[0], ctx.point[1] + step[1]]);
  });
}

/** Put the test point where the pointer is, in data coordinates, kept inside the axes. */
function movePointTo(ctx, event) {
  const { view } = ctx;
  if (!view) return;
  const rect = ctx.boundary.getBoundingClientRect();
  const [x0, x1, y0, y1] = view.domain;
  const { box } = view;
  const vx = (event.clientX - rect.left) / rect.width * view.width;
  const vy = (event.clientY - rect.top) / rect.height * view.height;
  const fx = Math.min(1, Math.max(0, (vx - box.left) / (box.right - box.left)));
  const fy = Math.min(1, Math.max(0, (box.bottom - vy) / (box.bottom - box.top)));
  setPoint(ctx, [x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy]);
}

/** Move the test point there (inside the axes, to two decimals) and ask the network about it. */
function setPoint(ctx, [px, py]) {
  const { view } = ctx;
  const [x0, x1, y0, y1] = view.domain;
  ctx.point = [Math.min(x1, Math.max(x0, px)), Math.min(y1, Math.max(y0, py))].map((v) => Math.round(v * 100) / 100);
  view.marker.setAttribute("cx", view.sx(ctx.point[0]));
  view.marker.setAttribute("cy", view.sy(ctx.point[1]));
  ctx.probe();
}

/** Train: a fresh network at the chosen rate, trained a chunk at a time with the curve
 * growing, then its boundary and the test point's reading. */
function trainer(ctx) {
  onBusyClick(ctx.train, () => trainRun(ctx));
}

async function trainRun(ctx) {
  const { rate, runs, status, progressBar } = ctx;
  const rt = python();
  const lr = rate.value;
  const label = `run ${++ctx.runCount}: learning rate ${lr}`;
  const losses = [];
  // the run that is going is the one on show: the last run's model is put away
  ctx.pictures.hidden = true;
  ctx.network.closest("figure").hidden = true;
  ctx.readout.textContent = "";
  ctx.grid = null;
  ctx.view = null;
  progressBar.value = 0;
  try {
    if (!rt.labBooted) status.textContent = "Waiting for Python to load…";
    await rt.labCall("train_start", [1, Number(lr)], { timeoutMs: 10_000 });
    while (losses.length < STEPS) {
      const chunk = await rt.labCall("train_steps", [Math.min(CHUNK, STEPS - losses.length)], { timeoutMs: 30_000 });
      if (!chunk?.losses) throw new Error("training was interrupted");
      losses.push(...chunk.losses);
      progressBar.value = losses.length;
      status.textContent = `Run ${ctx.runCount}, learning rate ${lr}: step ${losses.length} of ${STEPS}, loss ${fmt(losses.at(-1))}`;
      ctx.drawLoss(label, losses);
    }
    const earlier = runs.length ? ` The earlier ${runs.length === 1 ? "run is" : "runs are"} dashed on the chart.` : "";
    status.textContent = `Trained with learning rate ${lr}: loss ${fmt(losses[0])}\u00a0→\u00a0${fmt(losses.at(-1))} in ${STEPS} steps.${earlier}`;
    ctx.grid = await rt.labCall("train_boundary", [], { timeoutMs: 30_000 });
    ctx.pictures.hidden = false;
    ctx.view = drawDecisionBoundary(ctx.boundary, ctx.grid, ctx.point);
    await ctx.probe();
  } catch (error) {
    status.textContent = `Training stopped: ${error.message}`;
  } finally {
    ctx.train.textContent = `Train again (${STEPS} steps)`;
    if (losses.length) runs.push({ label, losses });
    if (runs.length > KEPT) runs.shift();
  }
}
