// Render a grader verdict as text (never as HTML: learner output is untrusted).

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function renderVerdict(region, verdict, { mode = "check" } = {}) {
  region.replaceChildren();
  const passed = verdict.passed;
  const headline = mode === "run" ? (verdict.status === "ok" ? "Ran" : "Not yet") : (passed ? "Passed" : "Not yet");
  region.dataset.state = mode === "run" ? (verdict.status === "ok" ? "ran" : "failed") : (passed ? "passed" : "failed");
  const head = el("p", "course-result__headline");
  head.append(el("strong", "", headline), document.createTextNode(verdict.summary ? ` — ${verdict.summary}` : ""));
  region.append(head);
  if (verdict.tests && verdict.tests.length) {
    const list = el("ul", "course-result__tests");
    for (const test of verdict.tests) {
      const item = el("li", test.passed ? "is-pass" : "is-fail");
      item.append(el("span", "course-result__mark", test.passed ? "✓ " : "✗ "));
      item.append(el("span", "", test.name));
      if (test.message) item.append(el("span", "course-result__message", test.message));
      list.append(item);
    }
    region.append(list);
  }
  if (verdict.error && verdict.error.traceback) region.append(el("pre", "course-result__error", verdict.error.traceback));
  if (verdict.stdout) {
    const out = el("div", "course-result__output");
    out.append(el("p", "course-result__label", "Output"));
    out.append(el("pre", "", verdict.stdout + (verdict.stdout_truncated ? "\n[output truncated: only the first 20,000 characters are shown]" : "")));
    region.append(out);
  }
}
