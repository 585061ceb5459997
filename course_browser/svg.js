// The SVG builders every picture uses (graphs, plots, icons): one element helper for
// SVG, as dom.js's `el` is for HTML.

export const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
