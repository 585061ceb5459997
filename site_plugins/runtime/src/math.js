// Render the page's math (pymdownx.arithmatex, generic mode) with self-hosted KaTeX.
import katex from "katex";

export function renderMath(root) {
  for (const el of root.querySelectorAll(".arithmatex")) {
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
