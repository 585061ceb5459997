// The capstone: the learner's own engine, assembled in the worker from the methods
// they wrote, each as it last passed its exercise's Check (labs/capstone.py), trains
// MLP(2, [8, 8, 1]) next to the reference engine, a few steps per call so progress
// shows; then one gradient check per piece points at the blank behind any difference;
// the learner can read and download the assembled engine as one file. It grants no
// progress.
import { button, el, inserter, liveStatus, mountOnce, onBusyClick } from "../dom.js";
import { boundaryLegend, drawDecisionBoundary } from "../boundary.js";
import { lossChart, lossFigure } from "../plots.js";
import { fmt } from "../numbers.js";
import { svg } from "../svg.js";
import { progress } from "../progress.js";
import { python } from "../runtime.js";
import FACTS from "../../runner/facts.json" with { type: "json" };

const STEPS = 60;
const CHUNK = 10;
// the learner's numbers stand beside the reference's: six digits show where they part
const SIDE_BY_SIDE = { digits: 6 };

/** A solved slot's code: the code that last passed its Check, whatever the editor holds
 * since (a Reset, an edit). Progress saved before passes were kept has only the draft:
 * `draft` says so. Null when the slot is not solved or has no code. */
function solvedCode(page, slot) {
  const item = progress.item(page, slot);
  if (!item.solved) return null;
  if (typeof item.passed === "string") return { code: item.passed, at: item.passedAt || 0 };
  const draft = progress.code(slot);
  return typeof draft === "string" ? { code: draft, at: -1, draft: true } : null;
}

/** The learner's code for each piece they solved (in its exercise or the skip-test twin),
 * keyed by the piece's name, as labs/capstone.py takes it: the one that passed last.
 * `recheck`: the pieces solved with only a draft that still holds blanks; they stay the
 * reference's until the learner checks their exercise again. */
export function learnerCodes(pieces) {
  const codes = {}, recheck = [];
  for (const piece of pieces) {
    const found = [piece.exercise, `quiz-${piece.exercise}`].map((slot) => solvedCode(piece.page, slot)).filter(Boolean);
    const usable = found.filter((f) => !f.draft || !f.code.includes(FACTS.blank)).sort((a, b) => b.at - a.at);
    if (usable.length) codes[piece.method] = usable[0].code;
    else if (found.length) recheck.push(piece);
  }
  return { codes, recheck };
}

export function mount(root) {
  if (!mountOnce(root)) return;
  const pieces = JSON.parse(root.dataset.pieces);
  root.querySelector(".course-lab__static")?.remove();
  const ctx = { root, pieces, add: inserter(root, root.firstChild) }; // each part's elements at the top, in order
  for (const part of [pieceTable, trainBar, pictures, verdictRegion, trainer]) part(ctx);
  mountEngineFile(root, () => learnerCodes(pieces).codes);
}

/** How a training run names the engine it trained: the learner's once any piece is theirs,
 * never while every piece is the reference's. */
const ENGINE_WORDS = {
  mine: { status: "your engine", curve: "your engine", network: "your",
    caption: "What your trained network believes about every point of the plane, computed by your engine." },
  none: { status: "the reference's pieces alone (none is yours yet)", curve: "reference pieces, none yours yet",
    network: "the reference pieces'",
    caption: "What the network believes about every point of the plane, computed by the reference's pieces: none of the engine is yours yet." },
};

/** A link to the exercise that writes `piece`. */
const pieceLink = (piece, text) => el("a", { href: `../${piece.page}/#ex-${piece.exercise}`, textContent: text });
/** "multiplication (__mul__)": the link is the words; the method stays out of its
 * underline, which would run into the method's own underscores. */
const named = (piece) => [pieceLink(piece, piece.what), " (", el("code", { textContent: piece.method }), ")"];

/** The table of pieces: whose each one is, and what its gradient check said; under it,
 * which solved exercises to check again. `ctx.gather()` reads the learner's codes afresh. */
function pieceTable(ctx) {
  const { pieces } = ctx;
  // a plain table in Material's own wrappers, so it is styled and scrolls like every table of the site
  const table = el("table", {},
    el("caption", { textContent: "Your engine, piece by piece: yours where you solved the exercise, the reference's until you do" }));
  ctx.add(el("div", { className: "md-typeset__scrollwrap course-capstone__pieces" },
    el("div", { className: "md-typeset__table" }, table)));
  const recheckNote = el("div", { className: "course-capstone__recheck", hidden: true });
  ctx.add(recheckNote);
  const head = table.createTHead().insertRow();
  for (const t of ["piece", "method", "whose", "gradient check"]) head.append(el("th", { scope: "col", textContent: t }));
  const body = table.createTBody();
  /** `checking`: the per-piece check is under way (it runs after the training). */
  ctx.renderPieces = (codes, checks = null, checking = false) => {
    body.replaceChildren();
    for (const piece of pieces) {
      const row = body.insertRow();
      const mine = piece.method in codes;
      const check = checks?.find((c) => c.method === piece.method);
      row.insertCell().append(pieceLink(piece, piece.what));
      row.insertCell().append(el("code", { textContent: piece.method }));
      row.insertCell().textContent = mine ? "yours" : ctx.recheck.includes(piece) ? "reference: check again" : "reference";
      row.insertCell().textContent = !mine ? "—" : !check ? (checking ? "checking…" : "not run yet") : check.ok ? "✓ same as the reference" : "✗ differs";
      row.dataset.state = !check || !mine ? "" : check.ok ? "ok" : "wrong";
    }
  };
  ctx.gather = () => {
    const { codes, recheck } = learnerCodes(pieces);
    ctx.recheck = recheck;
    showRecheck(recheckNote, recheck);
    return codes;
  };
  ctx.renderPieces(ctx.gather());
}

/** The solved exercises whose saved code still holds the starter's blanks (progress
 * saved before the code that passed was kept): named, each linked, so the learner checks
 * it again; until then the reference's piece stands in. */
function showRecheck(note, recheck) {
  note.hidden = !recheck.length;
  note.replaceChildren();
  if (!recheck.length) return;
  note.append(el("p", { textContent: `You solved ${recheck.length === 1 ? "this exercise" : "these exercises"}, `
    + `but the code saved there still has blanks (${FACTS.blank}), so the reference's piece stands in. `
    + `Open ${recheck.length === 1 ? "it" : "each"} and press Check again to train with your own:` }),
  el("ul", {}, ...recheck.map((p) => el("li", {}, ...named(p)))));
}

/** Train, its progress meter, and the status line under them. */
function trainBar(ctx) {
  const train = button(`Train your engine (${STEPS} steps)`, "md-button--primary");
  const bar = el("div", { className: "course-toolbar" }, train,
    el("progress", { max: STEPS, value: 0, "aria-label": "Training progress" }));
  const meter = bar.querySelector("progress");
  const status = liveStatus("p", "course-lab__status", "Press Train: your engine trains in the background, next to the reference.");
  ctx.add(bar, status);
  Object.assign(ctx, { train, meter, status });
}

/** The loss curves (shown once training starts) and the trained network's decision
 * boundary (once it has one). */
function pictures(ctx) {
  const plot = lossFigure("course-capstone__plot"); // shown once training starts
  const boundary = svg("svg", { class: "course-plot course-training__boundary", role: "img",
    "aria-label": "Decision boundary of the trained network" });
  const boundaryFigure = el("figure", { className: "course-training__boundary-figure course-capstone__boundary", hidden: true },
    boundary, boundaryLegend({ probe: false }),
    el("figcaption"));
  ctx.add(plot, boundaryFigure);
  Object.assign(ctx, { plot, boundary, boundaryFigure });
}

/** The verdict region, filled by judge() once the pieces are checked. */
function verdictRegion(ctx) {
  ctx.verdict = liveStatus("div", "course-capstone__verdict");
  ctx.add(ctx.verdict);
}

/** Which pieces match, counted: no claim for the reference's own. */
function matching(pieces, yours) {
  const others = pieces.length - yours;
  if (!others) return "Every piece matches the reference";
  return `${yours === 1 ? "Your one piece" : `Your ${yours} pieces`} of the ${pieces.length} ${yours === 1 ? "matches" : "match"} `
    + `the reference (the other ${others} are still the reference's)`;
}

/** Green only when training matched and every piece matches; else an amber note that
 * names each piece that differs, and how. */
function judge({ pieces, verdict }, checks, trainedAlike, yours) {
  if (!yours) { // nothing of the learner's was trained: no claim about their engine
    verdict.dataset.state = "reference";
    verdict.replaceChildren(el("p", { textContent: "None of these pieces is yours yet, so this was the course's "
      + "reference engine training next to itself. Solve the exercises the table links to, then train again: "
      + "each piece you solve takes the reference's place." }));
    return;
  }
  const wrong = checks.filter((c) => !c.ok);
  const same = trainedAlike && !wrong.length;
  verdict.dataset.state = same ? "same" : "differs";
  verdict.replaceChildren(el("p", { textContent: same
    ? `${matching(pieces, yours)}, and ${yours < pieces.length ? "this" : "your"} engine trained as the reference did, `
      + "step by step from the same starting weights, to rounding "
      + `(each loss and gradient within ${fmt(FACTS.same_to_rounding, { powers: true })} × (1 + its size) of the reference’s).`
    : trainedAlike
      ? "Your engine trained like the reference on this network, but not every piece matches it:"
      : wrong.length ? "Your engine did not train like the reference. The gradient check points at:"
        : "Your engine did not train like the reference, though each piece's own check passed: compare the two loss curves." }));
  if (!wrong.length) return;
  const list = el("ul");
  for (const c of wrong) {
    const piece = pieces.find((p) => p.method === c.method);
    const detail = c.problem ? c.problem
      : `on ${c.expression} at a = ${fmt(c.at[0], SIDE_BY_SIDE)}, b = ${fmt(c.at[1], SIDE_BY_SIDE)}: your engine gives ∂/∂a = ${fmt(c.got[0], SIDE_BY_SIDE)}, ∂/∂b = ${fmt(c.got[1], SIDE_BY_SIDE)}; the reference ${fmt(c.expected[0], SIDE_BY_SIDE)}, ${fmt(c.expected[1], SIDE_BY_SIDE)}`;
    list.append(el("li", {}, ...named(piece), `: ${detail}.`));
  }
  verdict.append(list);
}

/** The per-piece gradient check: the rows say "checking…", then each result, then the verdict. */
async function checkPieces(ctx, rt, codes, trainedAlike) {
  ctx.renderPieces(codes, null, true);
  const checked = await rt.labCall("capstone_check", [codes], { timeoutMs: 30_000 });
  if (checked?.error) throw new Error(checked.error);
  ctx.renderPieces(codes, checked.pieces);
  judge(ctx, checked.pieces, trainedAlike, Object.keys(codes).length);
}

/** Train: the learner's engine next to the reference, then its boundary, then the
 * per-piece check and the verdict. */
function trainer(ctx) {
  onBusyClick(ctx.train, () => trainRun(ctx));
}

async function trainRun(ctx) {
  const { status, verdict } = ctx;
  const rt = python();
  const codes = ctx.gather();
  ctx.words = ENGINE_WORDS[Object.keys(codes).length ? "mine" : "none"];
  ctx.renderPieces(codes);
  verdict.replaceChildren();
  delete verdict.dataset.state;
  ctx.boundaryFigure.hidden = true;
  try {
    if (!rt.labBooted) status.textContent = "Waiting for Python to load…";
    const run = await trainSteps(ctx, rt, codes);
    if (!run) return;
    const { losses, reference, params, worst } = run;
    const falls = losses[0] !== null && losses.at(-1) !== null && losses.at(-1) < losses[0] / 2;
    status.textContent = `Trained on ${ctx.words.status}: loss ${fmt(losses[0], SIDE_BY_SIDE)}\u00a0→\u00a0${fmt(losses.at(-1), SIDE_BY_SIDE)} in ${STEPS} steps${falls ? "" : " (it did not learn)"}; the reference: ${fmt(reference[0], SIDE_BY_SIDE)}\u00a0→\u00a0${fmt(reference.at(-1), SIDE_BY_SIDE)}.`;
    if (params.every((p) => p !== null)) await showBoundary(ctx, rt, codes, params);
    await checkPieces(ctx, rt, codes, worst <= FACTS.same_to_rounding);
  } catch (error) {
    status.textContent = `Training stopped: ${error.message}`;
  }
}

/** Both engines trained side by side, a chunk per call, the curves growing as they go.
 * Null when a saved piece can't be used (said, and its row marked). */
async function trainSteps(ctx, rt, codes) {
  const { status, meter, plot } = ctx;
  const losses = [], reference = [];
  let params = null, referenceParams = null, worst = 0;
  while (losses.length < STEPS) {
    const chunk = await rt.labCall("capstone_train", [codes, params, Math.min(CHUNK, STEPS - losses.length), referenceParams], { timeoutMs: 30_000 });
    if (chunk?.piece) { // a saved piece can't be used: say which, and mark the rows
      status.textContent = `Training stopped: your saved code for ${chunk.error}.`;
      await checkPieces(ctx, rt, codes, false);
      return null;
    }
    if (chunk?.error) throw new Error(chunk.error);
    if (!chunk?.losses) throw new Error("training was interrupted");
    losses.push(...chunk.losses);
    reference.push(...chunk.reference);
    params = chunk.params;
    referenceParams = chunk.reference_params;
    worst = chunk.worst_gradient_gap === null ? Number.POSITIVE_INFINITY : Math.max(worst, chunk.worst_gradient_gap);
    meter.value = losses.length;
    status.textContent = `Step ${losses.length} of ${STEPS}: loss ${fmt(losses.at(-1), SIDE_BY_SIDE)}, reference ${fmt(reference.at(-1), SIDE_BY_SIDE)}`;
    lossChart(plot, [{ label: ctx.words.curve, losses }, { label: "reference engine", losses: reference, dashed: true }], STEPS);
  }
  return { losses, reference, params, worst };
}

/** The trained network's decision boundary, computed by the learner's engine. */
async function showBoundary({ boundary, boundaryFigure, words }, rt, codes, params) {
  const grid = await rt.labCall("capstone_boundary", [codes, params], { timeoutMs: 30_000 });
  if (grid?.z) {
    drawDecisionBoundary(boundary, grid);
    boundary.setAttribute("aria-label", `Decision boundary of ${words.network} trained network: ${grid.right} of ${grid.points.length} training points on their own side.`);
    boundaryFigure.querySelector("figcaption").textContent = words.caption;
    boundaryFigure.hidden = false;
  }
}

/** "Show my engine" and "Download engine.py": the learner's assembled engine and
 * network as one file (labs/capstone.py's engine_source) that runs under plain Python. */
function mountEngineFile(root, codes) {
  const show = button("Show my engine");
  show.setAttribute("aria-expanded", "false");
  const download = button("Download engine.py");
  const note = liveStatus("p", "course-lab__status");
  const code = el("code", { className: "language-python" });
  const listing = el("pre", { className: "course-capstone__engine", hidden: true, tabIndex: 0, "aria-label": "Your engine, as one Python file" }, code);
  root.append(el("div", { className: "course-toolbar course-capstone__file" }, show, download), note, listing);

  async function source() {
    const rt = python();
    if (!rt.labBooted) note.textContent = "Waiting for Python to load…";
    const made = await rt.labCall("capstone_engine", [codes()], { timeoutMs: 30_000 });
    if (made?.source) { note.textContent = ""; return made.source; }
    note.textContent = made?.piece ? `Your engine can't be written out: your saved code for ${made.error}.`
      : `Your engine can't be written out: ${made?.error || "Python did not answer"}.`;
    return null;
  }
  onBusyClick(show, async () => {
    if (!listing.hidden) {
      listing.hidden = true;
      show.textContent = "Show my engine";
      show.setAttribute("aria-expanded", "false");
      return;
    }
    const text = await source();
    if (text === null) return;
    code.textContent = text;
    listing.hidden = false;
    show.textContent = "Hide my engine";
    show.setAttribute("aria-expanded", "true");
  });
  onBusyClick(download, async () => {
    const text = await source();
    if (text === null) return;
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/x-python" })), download: "engine.py" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    note.textContent = "Saved engine.py: run it with python engine.py, and it trains.";
  });
}
