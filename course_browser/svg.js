// The SVG builders every picture uses (graphs, plots, icons): one element helper for
// SVG, as dom.js's `el` is for HTML, and the course's number format (− for minus).

export const SVG = "http://www.w3.org/2000/svg";

export const fmt = (x) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4)))).replace("-", "−");

export function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
