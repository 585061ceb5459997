// Render the page's math (pymdownx.arithmatex, generic mode) with self-hosted KaTeX.
import katex from "katex";

/** Render `root` if it is a formula, else every formula inside it. */
export function renderMath(root) {
  const formulas = root.classList?.contains("arithmatex") ? [root] : root.querySelectorAll(".arithmatex");
  for (const el of formulas) {
    if (el.dataset.rendered) continue;
    const source = el.textContent.trim();
    const display = source.startsWith("\\[");
    const tex = source.replace(/^\\[([]/, "").replace(/\\[)\]]$/, "");
    try {
      katex.render(tex, el, { displayMode: display, throwOnError: false, output: "htmlAndMathml" });
      el.dataset.rendered = "true";
    } catch {
      /* leave the TeX source readable */
    }
  }
}
