// The capstone: the learner's own engine, assembled in the worker from the methods
// they wrote and solved (labs/capstone.py), trains MLP(2, [8, 8, 1]) next to the
// reference engine, a few steps per call so progress shows; then one gradient
// check per piece points at the blank behind any difference. It grants no progress.
import { button, el, liveStatus, mountOnce, onBusyClick } from "./dom.js";
import { boundaryLegend, drawDecisionBoundary } from "./boundary.js";
import { lossChart, lossFigure } from "./plots.js";
import { svg } from "./svg.js";
import { progress } from "./progress.js";
import { python } from "./runtime.js";

const STEPS = 60;
const CHUNK = 10;

/** The learner's saved code for each piece they solved (an exercise or its skip-test twin). */
export function learnerCodes(pieces) {
  const codes = {};
  for (const { exercise, page } of pieces) {
    for (const slot of [exercise, `quiz-${exercise}`]) {
      const code = progress.code(slot);
      if (progress.item(page, slot).solved && typeof code === "string") { codes[exercise] = code; break; }
    }
  }
  return codes;
}

const num = (v) => (v === null || v === undefined ? "not a number" : String(Number(v.toPrecision(6))).replace("-", "−"));

export function mountCapstone(root) {
  if (!mountOnce(root)) return;
  const pieces = JSON.parse(root.dataset.pieces);
  root.querySelector(".course-lab__static")?.remove();
  // a plain table in Material's own wrappers, so it is styled and scrolls like every table of the site
  const table = el("table", {},
    el("caption", { textContent: "Your engine, piece by piece: yours where you solved the exercise, the reference's until you do" }));
  const pieceTable = el("div", { className: "md-typeset__scrollwrap course-capstone__pieces" },
    el("div", { className: "md-typeset__table" }, table));
  const head = table.createTHead().insertRow();
  for (const t of ["piece", "method", "whose", "gradient check"]) head.append(el("th", { scope: "col", textContent: t }));
  const body = table.createTBody();
  const train = button(`Train your engine (${STEPS} steps)`, "md-button--primary");
  const bar = el("div", { className: "course-toolbar" }, train,
    el("progress", { max: STEPS, value: 0, "aria-label": "Training progress" }));
  const meter = bar.querySelector("progress");
  const status = liveStatus("p", "course-lab__status", "Press Train: your engine trains in the background, next to the reference.");
  const plot = lossFigure("course-capstone__plot"); // shown once training starts
  const boundary = svg("svg", { class: "course-plot course-training__boundary", role: "img",
    "aria-label": "Decision boundary of your trained network" });
  const boundaryFigure = el("figure", { className: "course-training__boundary-figure course-capstone__boundary", hidden: true },
    boundary, boundaryLegend({ probe: false }),
    el("figcaption", { textContent: "What your trained network believes about every point of the plane, computed by your engine." }));
  const verdict = liveStatus("div", "course-capstone__verdict");
  root.prepend(pieceTable, bar, status, plot, boundaryFigure, verdict);

  /** `checking`: the per-piece check is under way (it runs after the training). */
  function renderPieces(codes, checks = null, checking = false) {
    body.replaceChildren();
    for (const piece of pieces) {
      const row = body.insertRow();
      const mine = piece.exercise in codes;
      const check = checks?.find((c) => c.exercise === piece.exercise);
      const link = el("a", { href: `../${piece.page}/#ex-${piece.exercise}`, textContent: piece.what });
      row.insertCell().append(link);
      row.insertCell().append(el("code", { textContent: piece.method }));
      row.insertCell().textContent = mine ? "yours" : "reference";
      row.insertCell().textContent = !mine ? "—" : !check ? (checking ? "checking…" : "not run yet") : check.ok ? "✓ same as the reference" : "✗ differs";
      row.dataset.state = !check || !mine ? "" : check.ok ? "ok" : "wrong";
    }
  }
  renderPieces(learnerCodes(pieces));

  function explain(checks) {
    const wrong = checks.filter((c) => !c.ok);
    if (!wrong.length) return;
    verdict.append(el("p", { textContent: "The gradient check points at:" }));
    const list = el("ul");
    for (const c of wrong) {
      const detail = c.problem ? c.problem
        : `on ${c.expression} at a = ${num(c.at[0])}, b = ${num(c.at[1])}: your engine gives ∂/∂a = ${num(c.got[0])}, ∂/∂b = ${num(c.got[1])}; the reference ${num(c.expected[0])}, ${num(c.expected[1])}`;
      list.append(el("li", {}, el("a", { href: `../${c.page}/#ex-${c.exercise}`, textContent: `${c.what} (${c.method}, exercise ${c.exercise})` }),
        `: ${detail}.`));
    }
    verdict.append(list);
  }

  onBusyClick(train, async () => {
    const rt = python();
    const codes = learnerCodes(pieces);
    renderPieces(codes);
    verdict.replaceChildren();
    boundaryFigure.hidden = true;
    const losses = [], reference = [];
    let params = null, worst = 0;
    try {
      if (rt.state !== "ready") status.textContent = "Waiting for Python to load…";
      while (losses.length < STEPS) {
        const chunk = await rt.call("capstone_train", [codes, params, Math.min(CHUNK, STEPS - losses.length)], { timeoutMs: 30_000 });
        if (chunk?.error) throw new Error(chunk.error);
        if (!chunk?.losses) throw new Error("training was interrupted");
        losses.push(...chunk.losses);
        reference.push(...chunk.reference);
        params = chunk.params;
        worst = chunk.worst_gradient_gap === null ? Number.POSITIVE_INFINITY : Math.max(worst, chunk.worst_gradient_gap);
        meter.value = losses.length;
        const last = losses.at(-1);
        status.textContent = `Step ${losses.length} of ${STEPS}: loss ${num(last)}`;
        if (losses.every((l) => l !== null)) {
          lossChart(plot, [{ label: "your engine", losses }, { label: "reference engine", losses: reference, dashed: true }], STEPS);
        }
      }
      const falls = losses[0] !== null && losses.at(-1) !== null && losses.at(-1) < losses[0];
      status.textContent = `Trained on your engine: loss ${num(losses[0])} → ${num(losses.at(-1))} in ${STEPS} steps${falls ? "" : " (it did not fall)"}.`;
      const grid = await rt.call("capstone_boundary", [codes, params], { timeoutMs: 30_000 });
      if (grid?.z) {
        drawDecisionBoundary(boundary, grid);
        boundary.setAttribute("aria-label", `Decision boundary of your trained network: ${grid.right} of ${grid.points.length} training points on their own side.`);
        boundaryFigure.hidden = false;
      }
      const same = worst <= 1e-9;
      verdict.dataset.state = same ? "same" : "differs";
      verdict.append(el("p", { textContent: same
        ? "Every gradient of every step matches the reference engine's, from the same starting weights: your engine computes exactly what the reference does."
        : "Your engine's gradients differ from the reference's on the same weights. Checking each of your pieces on its own…" }));
      renderPieces(codes, null, true);
      const checked = await rt.call("capstone_check", [codes], { timeoutMs: 30_000 });
      if (checked?.error) throw new Error(checked.error);
      renderPieces(codes, checked.pieces);
      explain(checked.pieces);
    } catch (error) {
      status.textContent = `Training stopped: ${error.message}`;
    }
  });
}
