// Small SVG plotting helpers: axes, lines and points in data coordinates.
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

/** A plot frame: returns {x, y, layer} where x/y map data to pixels. */
export function frame(figure, { width = 480, height = 260, xDomain, yDomain, xLabel, yLabel, pad = 40, yFormat = round }) {
  figure.replaceChildren();
  figure.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const x = scale(xDomain, [pad, width - 12]);
  const y = scale(yDomain, [height - 28, 10]);
  const layer = svg("g");
  const axes = svg("g", { class: "course-plot__axes" });
  axes.append(svg("line", { x1: pad, y1: height - 28, x2: width - 12, y2: height - 28 }));
  axes.append(svg("line", { x1: pad, y1: 10, x2: pad, y2: height - 28 }));
  for (const v of [xDomain[0], (xDomain[0] + xDomain[1]) / 2, xDomain[1]]) {
    axes.append(svg("text", { x: x(v), y: height - 12, "text-anchor": "middle" }, round(v)));
  }
  for (const v of [yDomain[0], (yDomain[0] + yDomain[1]) / 2, yDomain[1]]) {
    axes.append(svg("text", { x: pad - 4, y: y(v) + 4, "text-anchor": "end" }, yFormat(v)));
  }
  if (xLabel) axes.append(svg("text", { x: width - 12, y: height - 30, "text-anchor": "end", class: "course-plot__label" }, xLabel));
  if (yLabel) axes.append(svg("text", { x: pad + 4, y: 20, class: "course-plot__label" }, yLabel));
  figure.append(axes, layer);
  return { x, y, layer };
}

export function polyline(points, x, y, className) {
  return svg("polyline", { points: points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(" "), class: className });
}

/** A training loss curve on a log scale: the first steps fall by orders of magnitude,
 * the rest keep falling steadily. `extra` adds more curves ({points, className}). */
export function lossCurve(figure, losses, steps, extra = []) {
  const logs = losses.map((l) => Math.log10(Math.max(l, 1e-12)));
  const all = [...logs, ...extra.flatMap((c) => c.losses.map((l) => Math.log10(Math.max(l, 1e-12))))];
  const { x, y, layer } = frame(figure, { xDomain: [0, steps], yDomain: [Math.floor(Math.min(...all)), Math.ceil(Math.max(...all, 0))],
    xLabel: "step", yLabel: "loss (log scale)", yFormat: (v) => String(Number((10 ** v).toPrecision(2))) });
  for (const curve of extra) {
    layer.append(polyline(curve.losses.map((l, i) => [i + 1, Math.log10(Math.max(l, 1e-12))]), x, y, curve.className));
  }
  layer.append(polyline(logs.map((l, i) => [i + 1, l]), x, y, "course-plot__curve"));
  const fmt = (v) => String(Number(v.toPrecision(4))).replace("-", "−");
  figure.setAttribute("aria-label", `Loss curve: ${losses.length} steps, from ${fmt(losses[0])} to ${fmt(losses.at(-1))}.`);
}

function round(v) {
  return String(Math.abs(v) >= 100 ? Math.round(v) : Number(v.toPrecision(3))).replace("-", "−");
}
