// The DOM builders every widget uses: one element helper, one mount-once guard,
// real buttons and polite live regions.

/**
 * Make an element: `el("p", {className: "x", hidden: true, "aria-label": "…"}, child, "text")`.
 * Keys that are properties of the element (className, textContent, type, value,
 * hidden, disabled, htmlFor, …) are set as properties; the rest (aria-*, data-*,
 * role, …) as attributes, where false leaves the attribute out. Children are nodes or strings; null and false are skipped.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (key in node && !key.includes("-")) node[key] = value;
    else if (value !== false) node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/** True the first time a widget's root is seen; false after (Material's instant
 * navigation and repeated mount passes call every widget's mount again). */
export function mountOnce(root) {
  if (root.dataset.mounted) return false;
  root.dataset.mounted = "true";
  return true;
}

export function button(label, className = "") {
  return el("button", { type: "button", className: `md-button course-button ${className}`.trim(), textContent: label });
}

/** Run the async `handler` when `button` is clicked, one run at a time: meanwhile the
 * button says it is busy and ignores clicks (aria-disabled, not disabled: a disabled
 * button drops the keyboard's focus to the page). */
export function onBusyClick(button, handler) {
  button.addEventListener("click", async () => {
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    try {
      await handler();
    } finally {
      button.removeAttribute("aria-disabled");
    }
  });
}

/** A region whose changes screen readers announce without interrupting. */
export function liveStatus(tag, className, text = "") {
  return el(tag, { className, role: "status", "aria-live": "polite", textContent: text });
}

/** Insert nodes at one spot of `parent` (before `next`; at the end when null), in the
 * order given over several calls: each part of a widget puts its own elements in place,
 * and together they come out as one `prepend` or `after` would have put them. */
export function inserter(parent, next = null) {
  return (...nodes) => { for (const node of nodes) parent.insertBefore(node, next); };
}
