// The derivative as a nudge: a curve, its tangent at x₀, and two ways to measure
// the slope by nudging (central and one-sided) next to the engine's gradient,
// with each one's error for every nudge size h. labs/tangent.py computes it all.
import { el, liveStatus, mountOnce } from "./dom.js";
import { fmt, svg } from "./svg.js";
import { extent, frame, polyline } from "./plots.js";
import { latestCall } from "./runtime.js";
import { rememberInput } from "./lab.js";

const FUNCTIONS = { quadratic: "f(x) = 3x² − 4x + 5", cubic: "g(x) = x³" };
const STEPS = ["1", "0.1", "0.01", "0.001"];
const minus = (text) => text.replace(/-/g, "−");
const fixed = (v) => minus(v.toFixed(6));
const small = (v) => (v < 5e-10 ? "0" : minus(Number(v.toPrecision(2)).toString()));

/** The tangent through (x0, y0) with `slope`, cut to the plot's box. */
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

export function mountTangent(root) {
  if (!mountOnce(root)) return;
  let data = JSON.parse(root.dataset.tangent);
  root.querySelector(".course-lab__static")?.remove();

  const fn = el("select", { "aria-label": "Function" });
  for (const [value, label] of Object.entries(FUNCTIONS)) fn.append(new Option(label, value, false, value === data.function));
  const x0 = el("input", { type: "range", min: "-1", max: "5", step: "0.1", value: String(data.x0),
    "aria-label": "x₀, where to measure the slope" });
  const h = el("select", { "aria-label": "Nudge size h" });
  for (const value of STEPS) h.append(new Option(`h = ${value}`, value, false, Number(value) === data.h));
  const controls = el("div", { className: "course-lab__inputs" },
    el("label", {}, "function ", fn), el("label", {}, "x₀ ", x0), el("label", {}, "nudge ", h));
  const figure = svg("svg", { class: "course-plot", role: "img" });
  const readout = liveStatus("p", "course-lab__status");
  const table = el("table", { className: "course-lab__checks" });
  root.prepend(controls, figure, readout, table);

  function draw() {
    const xDomain = [data.points[0][0], data.points.at(-1)[0]];
    const yDomain = extent(data.points.map((p) => p[1]));
    const { x, y, layer } = frame(figure, { xDomain, yDomain, xLabel: "x", yLabel: data.label.split(" = ")[0] });
    layer.append(polyline(data.points, x, y, "course-plot__curve"));
    layer.append(polyline(tangentSegment(data.x0, data.y0, data.engine, xDomain, yDomain), x, y, "course-plot__tangent"));
    layer.append(svg("circle", { cx: x(data.x0), cy: y(data.y0), r: 5, class: "course-plot__point" }));
    const text = `At x₀ = ${fmt(data.x0)} with h = ${data.h}: central ${fixed(data.central)} (error ${small(data.central_error)}), `
      + `one-sided ${fixed(data.forward)} (error ${small(data.forward_error)}), the engine's gradient ${fmt(data.engine)}.`;
    readout.textContent = text;
    figure.setAttribute("aria-label", `Plot of ${data.label} with its tangent at x = ${fmt(data.x0)}. ${text}`);
    table.replaceChildren(el("caption", { textContent: `Error of each nudge on ${data.label} at x₀ = ${fmt(data.x0)}` }));
    const head = table.createTHead().insertRow();
    for (const t of ["h", "central error", "one-sided error"]) head.append(el("th", { scope: "col", textContent: t }));
    const body = table.createTBody();
    for (const row of data.errors) {
      const tr = body.insertRow();
      for (const t of [String(row.h), small(row.central_error), small(row.forward_error)]) tr.insertCell().textContent = t;
    }
  }

  const call = latestCall(readout, "Measuring once Python has loaded…");
  async function update() {
    const fresh = await call("tangent", [Number(x0.value), Number(h.value), fn.value]);
    if (fresh?.points) { data = fresh; draw(); }
  }
  for (const control of [x0, h, fn]) control.addEventListener(control === x0 ? "input" : "change", update);
  draw();
  for (const [name, control] of Object.entries({ x0, h, fn })) rememberInput(root, name, control, update); // kept across reloads
}
