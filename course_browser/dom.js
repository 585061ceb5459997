// Small DOM builders shared by the widgets: real buttons and polite live regions.

export function button(label, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `md-button course-button ${className}`.trim();
  b.textContent = label;
  return b;
}

/** A region whose changes screen readers announce without interrupting. */
export function liveStatus(tag, className, text = "") {
  const el = document.createElement(tag);
  el.className = className;
  el.setAttribute("role", "status");
  el.setAttribute("aria-live", "polite");
  el.textContent = text;
  return el;
}
