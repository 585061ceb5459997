// The derivative as a nudge: f(x) = 3x² − 4x + 5, its tangent at x₀, the slope
// measured by a central difference (the oracle) next to the engine's gradient.
import { liveStatus, mountOnce } from "./dom.js";
import { fmt, svg } from "./graphview.js";
import { extent, frame, polyline } from "./plots.js";
import { latestCall } from "./runtime.js";

export function mountTangent(root) {
  if (!mountOnce(root)) return;
  let data = JSON.parse(root.dataset.tangent);
  root.querySelector(".course-lab__static")?.remove();

  const controls = document.createElement("div");
  controls.className = "course-lab__inputs";
  const xLabel = document.createElement("label");
  const x0 = Object.assign(document.createElement("input"), { type: "range", min: "-1", max: "5", step: "0.1", value: String(data.x0) });
  x0.setAttribute("aria-label", "x₀, where to measure the slope");
  xLabel.append("x₀ ", x0);
  const hLabel = document.createElement("label");
  const h = document.createElement("select");
  h.setAttribute("aria-label", "Nudge size h");
  for (const value of ["1", "0.1", "0.001", "1e-6"]) h.append(new Option(`h = ${value}`, value, false, Number(value) === data.h));
  hLabel.append("nudge ", h);
  controls.append(xLabel, hLabel);
  const figure = svg("svg", { class: "course-plot", role: "img" });
  const readout = liveStatus("p", "course-lab__status");
  root.prepend(controls, figure, readout);

  function draw() {
    const ys = data.points.map((p) => p[1]);
    const { x, y, layer } = frame(figure, { xDomain: [data.points[0][0], data.points.at(-1)[0]], yDomain: extent(ys), xLabel: "x", yLabel: "f(x)" });
    layer.append(polyline(data.points, x, y, "course-plot__curve"));
    const span = 1.2;
    const tangentPoints = [[data.x0 - span, data.y0 - span * data.numeric], [data.x0 + span, data.y0 + span * data.numeric]];
    layer.append(polyline(tangentPoints, x, y, "course-plot__tangent"));
    layer.append(svg("circle", { cx: x(data.x0), cy: y(data.y0), r: 5, class: "course-plot__point" }));
    const text = `At x₀ = ${fmt(data.x0)}: slope by nudging ${data.numeric.toFixed(6).replace("-", "−")}, the engine's gradient ${fmt(data.engine)}.`;
    readout.textContent = text;
    figure.setAttribute("aria-label", `Plot of f(x) = 3x² − 4x + 5 with its tangent at x = ${fmt(data.x0)}. ${text}`);
  }

  const call = latestCall(readout, "Measuring once Python has loaded…");
  async function update() {
    const fresh = await call("tangent", [Number(x0.value), Number(h.value)]);
    if (fresh && fresh.points) { data = fresh; draw(); }
  }
  x0.addEventListener("input", update);
  h.addEventListener("change", update);
  draw();
}
