// The derivative as a nudge: a curve, its tangent at x₀, the nudge itself (the points
// at x₀ − h and x₀ + h, the central and one-sided secants), and the slope by both
// nudges next to the engine's gradient, with each one's error for every nudge size h.
// Then gradient descent on the same curve: step x against the engine's slope, at a
// rate the learner picks. labs/tangent.py computes every number (the worker's
// `tangent` call); this file only applies x − rate × slope and draws.
import { button, el, inserter, liveStatus, mountOnce, onBusyClick } from "../dom.js";
import { fmt } from "../numbers.js";
import { svg } from "../svg.js";
import { extent, frame, polyline } from "../plots.js";
import { latestCall, python } from "../runtime.js";
import { rememberInput } from "../lab-input.js";

const FUNCTIONS = { quadratic: "f(x) = 3x² − 4x + 5", cubic: "g(x) = x³" };
const STEPS = ["1", "0.1", "0.01", "0.001"];
const RUN_STEPS = 20;
// A slope by nudging to six decimals, so the one-sided's error shows beside the central's;
// a descent step to six digits, which follow x to the minimum.
const SLOPE = { decimals: 6 };
const STEP = { digits: 6, powers: true }; // a slope near the bottom reads 3.8 × 10⁻⁷, not 3.8e-7
/** A nudge's error in two digits; below 5e-10 it is the doubles' rounding, not the nudge's: 0. */
const errorText = (v) => fmt(v < 5e-10 ? 0 : v, { digits: 2 });

/** The line through (x0, y0) with `slope`, cut to the plot's box and to `span` either side. */
export function tangentSegment(x0, y0, slope, [xLo, xHi], [yLo, yHi], span = 1.2) {
  let a = Math.max(xLo, x0 - span), b = Math.min(xHi, x0 + span);
  if (slope !== 0) {
    const atY = (y) => x0 + (y - y0) / slope;
    const [lo, hi] = [atY(yLo), atY(yHi)].sort((p, q) => p - q);
    a = Math.max(a, lo);
    b = Math.min(b, hi);
  }
  return [[a, y0 + (a - x0) * slope], [b, y0 + (b - x0) * slope]];
}

const inside = ([px, py], [xLo, xHi], [yLo, yHi]) => px >= xLo && px <= xHi && py >= yLo && py <= yHi;

export function mount(root) {
  if (!mountOnce(root)) return;
  root.querySelector(".course-lab__static")?.remove();
  const ctx = {
    root,
    data: JSON.parse(root.dataset.tangent), // the measurement on show (labs/tangent.py)
    walk: [], // [{x, y, slope}], from x₀; empty until the first step
    add: inserter(root, root.firstChild), // each part's elements at the top, in the parts' order
  };
  for (const part of [inputs, plot, descent, remeasure]) part(ctx);
  draw(ctx);
  const { x0, h, fn } = ctx;
  for (const [name, control] of Object.entries({ x0, h, fn })) rememberInput(root, name, control, ctx.update); // kept across reloads
}

/** What to measure: the function, x₀ and the nudge size h. */
function inputs(ctx) {
  const { data } = ctx;
  const fn = el("select", { "aria-label": "Function" });
  for (const [value, label] of Object.entries(FUNCTIONS)) fn.append(new Option(label, value, false, value === data.function));
  const x0 = el("input", { type: "range", min: "-1", max: "5", step: "0.1", value: String(data.x0),
    "aria-label": "x₀, where to measure the slope" });
  // the slider's value on screen (a screen reader hears it from the slider itself)
  const x0Shown = el("span", { className: "course-lab__value", "aria-hidden": "true", textContent: fmt(data.x0) });
  const h = el("select", { "aria-label": "Nudge size h" });
  for (const value of STEPS) h.append(new Option(`h = ${value}`, value, false, Number(value) === data.h));
  ctx.add(el("div", { className: "course-lab__inputs" },
    el("label", {}, "function ", fn), el("label", {}, "x₀ ", x0, " ", x0Shown), el("label", {}, "nudge ", h)));
  Object.assign(ctx, { fn, x0, x0Shown, h });
}

/** The plot and its legend, the measurement in words, and the table of each nudge's error. */
function plot(ctx) {
  const figure = svg("svg", { class: "course-plot", role: "img" });
  const legend = el("p", { className: "course-plot__legend" },
    el("span", { className: "course-plot__key course-plot__key--tangent" }, "tangent (the engine's slope)"),
    el("span", { className: "course-plot__key course-plot__key--central" }, "central secant, x₀ − h to x₀ + h"),
    el("span", { className: "course-plot__key course-plot__key--forward" }, "one-sided secant, x₀ to x₀ + h"),
    el("span", { className: "course-plot__key course-plot__key--walk" }, "the walk downhill, once you step"));
  const readout = liveStatus("p", "course-lab__status");
  const table = el("table", { className: "course-lab__checks" });
  ctx.add(figure, legend, readout, table);
  Object.assign(ctx, { figure, readout, table });
}

/** Gradient descent: a walk from x₀, each step against the engine's slope at the current x. */
function descent(ctx) {
  const rate = el("select", { "aria-label": "Learning rate" });
  // the rates (crawl, settle, zig-zag, diverge) and where a walk counts as run away: labs/tangent.py
  for (const value of ctx.data.rates) rate.append(new Option(`rate = ${value}`, String(value), false, value === 0.1));
  const stepOnce = button("Step downhill");
  const stepMany = button(`Run ${RUN_STEPS} steps`);
  const reset = button("Start again from x₀");
  // announced as it changes, but not a second `status`: the measurement above stays the lab's status
  const walkStatus = el("p", { className: "course-descent__status", "aria-live": "polite",
    textContent: "Press Step downhill: x moves to x − rate × slope." });
  ctx.add(el("div", { className: "course-descent", role: "group", "aria-label": "Gradient descent" },
    el("p", { className: "course-descent__title" }, el("strong", {}, "Walk downhill")),
    el("div", { className: "course-lab__inputs" }, el("label", {}, "learning rate ", rate), stepOnce, stepMany, reset),
    walkStatus));
  Object.assign(ctx, { rate, walkStatus });
  onBusyClick(stepOnce, () => step(ctx));
  onBusyClick(stepMany, async () => {
    for (let i = 0; i < RUN_STEPS; i += 1) if (!(await step(ctx))) break;
  });
  reset.addEventListener("click", () => ctx.update());
  rate.addEventListener("change", () => ctx.update());
}

/** A changed input measures again (the newest answer wins) and starts the walk over. */
function remeasure(ctx) {
  const { x0, h, fn } = ctx;
  const call = latestCall(ctx.readout, "Measuring once Python has loaded…");
  ctx.update = async () => {
    ctx.x0Shown.textContent = fmt(Number(x0.value));
    ctx.walk = [];
    ctx.walkStatus.textContent = "Press Step downhill: x moves to x − rate × slope.";
    ctx.figure.classList.add("course-lab__stale"); // what it shows is the last measurement
    const fresh = await call("tangent", [Number(x0.value), Number(h.value), fn.value]);
    if (fresh === null) return; // overtaken: the newer call draws
    ctx.figure.classList.remove("course-lab__stale");
    if (fresh?.points) { ctx.data = fresh; draw(ctx); }
  };
  for (const control of [x0, h, fn]) control.addEventListener(control === x0 ? "input" : "change", ctx.update);
}

function draw(ctx) {
  drawPlot(ctx);
  describe(ctx);
}

/** The curve, the two secants through the nudged points, the tangent, and the walk so far. */
function drawPlot({ data, walk, figure }) {
  const xDomain = [data.points[0][0], data.points.at(-1)[0]];
  const onCurve = walk.filter((p) => p.x >= xDomain[0] && p.x <= xDomain[1]); // the walk settles below the sampled curve's lowest point
  // 0 always in range: the x axis is then y = 0, and a minimum above it can't read as f = 0
  const yDomain = extent([0, ...[...data.points, ...onCurve.map((p) => [p.x, p.y])].map((p) => p[1])]);
  const { x, y, layer } = frame(figure, { xDomain, yDomain, xLabel: "x", yLabel: data.label.split(" = ")[0] });
  layer.append(polyline(data.points, x, y, "course-plot__curve"));
  const { left, right } = data.nudge;
  const span = 2 * data.h + 1;
  layer.append(polyline(tangentSegment(...left, data.central, xDomain, yDomain, span), x, y, "course-plot__secant course-plot__secant--central"));
  layer.append(polyline(tangentSegment(data.x0, data.y0, data.forward, xDomain, yDomain, span), x, y, "course-plot__secant course-plot__secant--forward"));
  layer.append(polyline(tangentSegment(data.x0, data.y0, data.engine, xDomain, yDomain), x, y, "course-plot__tangent"));
  for (const [px, py] of [left, right]) {
    if (inside([px, py], xDomain, yDomain)) layer.append(svg("circle", { cx: x(px), cy: y(py), r: 4, class: "course-plot__nudge" }));
  }
  layer.append(svg("circle", { cx: x(data.x0), cy: y(data.y0), r: 5, class: "course-plot__point" }));
  const seen = walk.filter((p) => inside([p.x, p.y], xDomain, yDomain)).map((p) => [p.x, p.y]);
  if (seen.length > 1) layer.append(polyline(seen, x, y, "course-plot__walk"));
  for (const [px, py] of seen) layer.append(svg("circle", { cx: x(px), cy: y(py), r: 3, class: "course-plot__walk-point" }));
}

/** The measurement in words (the status line, and the plot's name for a screen reader)
 * and the table of each nudge size's error. */
function describe({ data, readout, figure, table }) {
  const { left, right } = data.nudge;
  const text = `At x₀ = ${fmt(data.x0)} with h = ${data.h}: central ${fmt(data.central, SLOPE)} (error ${errorText(data.central_error)}), `
    + `one-sided ${fmt(data.forward, SLOPE)} (error ${errorText(data.forward_error)}), the engine's gradient ${fmt(data.engine)}.`;
  readout.textContent = text;
  const nudged = `Nudged points: x₀ − h = ${fmt(left[0])}, where ${data.label.split(" = ")[0].replace("x", fmt(left[0]))} = ${fmt(left[1])}; `
    + `x₀ + h = ${fmt(right[0])}, where it is ${fmt(right[1])}.`;
  figure.setAttribute("aria-label", `Plot of ${data.label} with its tangent at x = ${fmt(data.x0)} and the two secants. ${nudged} ${text}`);
  // the function is named in the menu above: a caption this short never breaks inside it
  table.replaceChildren(el("caption", { textContent: `Error of each nudge at x₀ = ${fmt(data.x0)}` }));
  const head = table.createTHead().insertRow();
  for (const t of ["h", "central error", "one-sided error"]) head.append(el("th", { scope: "col", textContent: t }));
  const body = table.createTBody();
  for (const row of data.errors) {
    const tr = body.insertRow();
    for (const t of [String(row.h), errorText(row.central_error), errorText(row.forward_error)]) tr.insertCell().textContent = t;
  }
}

/** The engine's f and slope at x (the worker's `tangent`, whose point and gradient are all a step needs). */
async function slopeAt({ h, fn }, x) {
  const at = await python().labCall("tangent", [x, Number(h.value), fn.value], { timeoutMs: 5000 });
  return { x, y: at.y0, slope: at.engine };
}

/** One step: from the walk's last point (or x₀) to x − rate × slope. Returns false once x ran away. */
async function step(ctx) {
  // ctx.walk and ctx.data are read afresh after each wait: a changed input starts a new walk meanwhile
  const { rate, walkStatus } = ctx;
  if (!python().labBooted) walkStatus.textContent = "Stepping once Python has loaded…";
  if (!ctx.walk.length) ctx.walk.push(await slopeAt(ctx, Number(ctx.x0.value)));
  const here = ctx.walk.at(-1);
  if (Math.abs(here.x) > ctx.data.runaway) return false;
  const r = Number(rate.value);
  const next = await slopeAt(ctx, here.x - r * here.slope);
  ctx.walk.push(next);
  const n = ctx.walk.length - 1;
  const slope = fmt(here.slope, STEP);
  const how = `Step ${n}: x = ${fmt(here.x, STEP)} − ${rate.value} × ${here.slope < 0 ? `(${slope})` : slope} = ${fmt(next.x, STEP)}`;
  const ran = Math.abs(next.x) > ctx.data.runaway;
  walkStatus.textContent = ran
    ? `${how}. x has run away: each step lands farther out than the last. Diverging.`
    : `${how}; there ${ctx.data.label.split(" = ")[0]} = ${fmt(next.y, STEP)} and the slope is ${fmt(next.slope, STEP)}.`;
  draw(ctx);
  return !ran;
}
