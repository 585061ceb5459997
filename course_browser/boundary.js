// The decision boundary of a trained network: its output over the plane (the sign as
// the colour, the size as the strength), the training points, axes and a legend.
// Drawn by the training lab (with a test point) and by the capstone (the learner's network).
import { el } from "./dom.js";
import { scale } from "./plots.js";
import { fmt } from "./numbers.js";
import { svg } from "./svg.js";

/** The class that colours a mark by the sign of `v` (course.css holds each palette's
 * blue and red): `fill` for shapes, `stroke` for lines. */
export const sign = (v, paint = "fill") => `course-${paint}--${v >= 0 ? "pos" : "neg"}`;

/** Draw `grid` ({xs, ys, z, points, labels}) into the SVG `figure`; with `point`, a test
 * point too. Returns the view (scales, box and the test point's marker). */
export function drawDecisionBoundary(figure, grid, point = null) {
  const { xs, ys, z, points, labels } = grid;
  const [x0, x1, y0, y1] = [xs[0], xs.at(-1), ys[0], ys.at(-1)];
  const plotW = 288, plotH = Math.round(plotW * (y1 - y0) / (x1 - x0));
  const box = { left: 46, top: 8, right: 46 + plotW, bottom: 8 + plotH };
  const width = box.right + 10, height = box.bottom + 42;
  figure.replaceChildren();
  figure.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const sx = scale([x0, x1], [box.left, box.right]);
  const sy = scale([y0, y1], [box.bottom, box.top]);
  const cw = plotW / (xs.length - 1), ch = plotH / (ys.length - 1);
  const cells = svg("g", { class: "course-training__cells" });
  for (const [j, yv] of ys.entries()) {
    for (const [i, xv] of xs.entries()) {
      const v = z[j][i] ?? 0; // null: the network computed no number there
      // edge cells are halves: the shading stays inside the axes
      const left = Math.max(box.left, sx(xv) - cw / 2), top = Math.max(box.top, sy(yv) - ch / 2);
      const right = Math.min(box.right, sx(xv) + cw / 2), bottom = Math.min(box.bottom, sy(yv) + ch / 2);
      cells.append(svg("rect", { x: left.toFixed(2), y: top.toFixed(2), width: (right - left).toFixed(2), height: (bottom - top).toFixed(2),
        class: sign(v), "fill-opacity": (0.12 + 0.3 * Math.min(1, Math.abs(v))).toFixed(2) }));
    }
  }
  figure.append(cells, boundaryAxes(box, sx, sy, [x0, x1], [y0, y1]));
  points.forEach(([px, py], k) => {
    figure.append(labels[k] > 0
      ? svg("circle", { cx: sx(px), cy: sy(py), r: 7, class: `course-training__point ${sign(1)}` })
      : svg("rect", { x: sx(px) - 6, y: sy(py) - 6, width: 12, height: 12, class: `course-training__point ${sign(-1)}` }));
  });
  const marker = point && svg("circle", { cx: sx(point[0]), cy: sy(point[1]), r: 9, class: "course-training__probe" });
  if (marker) figure.append(marker);
  return { sx, sy, box, width, height, marker, domain: [x0, x1, y0, y1] };
}

/** A legend's swatch: a small inline SVG holding one shape. */
function swatch(...shapes) {
  const icon = svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", class: "course-training__swatch" });
  icon.append(...shapes);
  return icon;
}

export function boundaryLegend({ probe = true } = {}) {
  const item = (icon, text) => el("li", {}, icon, text);
  return el("ul", { className: "course-training__legend", "aria-label": "Legend of the decision boundary" },
    item(swatch(svg("circle", { cx: 8, cy: 8, r: 6, class: `course-training__point ${sign(1)}` })), "class +1 (training point)"),
    item(swatch(svg("rect", { x: 2.5, y: 2.5, width: 11, height: 11, class: `course-training__point ${sign(-1)}` })), "class −1 (training point)"),
    item(swatch(svg("rect", { x: 0, y: 0, width: 8, height: 16, class: sign(1), "fill-opacity": 0.35 }),
      svg("rect", { x: 8, y: 0, width: 8, height: 16, class: sign(-1), "fill-opacity": 0.35 })),
    "shading: the sign of the network's output (blue +, red −; stronger where it is surer)"),
    probe && item(swatch(svg("circle", { cx: 8, cy: 8, r: 6, class: "course-training__probe" })), "the test point (drag it, or use the arrow keys)"));
}

/** The boundary's axes: x₁ along the bottom, x₂ up the left, a tick at every whole number. */
function boundaryAxes(box, sx, sy, [x0, x1], [y0, y1]) {
  const axes = svg("g", { class: "course-plot__axes" });
  axes.append(svg("rect", { x: box.left, y: box.top, width: box.right - box.left, height: box.bottom - box.top, class: "course-training__frame" }));
  for (let v = Math.ceil(x0); v <= x1; v++) {
    axes.append(svg("line", { x1: sx(v), y1: box.bottom, x2: sx(v), y2: box.bottom + 5 }));
    axes.append(svg("text", { x: sx(v), y: box.bottom + 17, "text-anchor": "middle" }, fmt(v)));
  }
  for (let v = Math.ceil(y0); v <= y1; v++) {
    axes.append(svg("line", { x1: box.left - 5, y1: sy(v), x2: box.left, y2: sy(v) }));
    axes.append(svg("text", { x: box.left - 8, y: sy(v) + 4, "text-anchor": "end" }, fmt(v)));
  }
  const mid = (box.top + box.bottom) / 2;
  axes.append(svg("text", { x: (box.left + box.right) / 2, y: box.bottom + 35, "text-anchor": "middle", class: "course-plot__label" }, "x₁"));
  axes.append(svg("text", { x: 12, y: mid + 4, "text-anchor": "middle", class: "course-plot__label" }, "x₂"));
  return axes;
}
