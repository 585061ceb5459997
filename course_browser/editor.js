// The code editor: CodeMirror 6, composed from its own extensions.
// Loaded only on pages that have an exercise (a split chunk of course.js).
//
// Keys: Enter is always a new line (keeping the indent), never "take the suggestion"
// · Tab takes an open suggestion, else indents · arriving by Tab, Tab moves on until
// the learner types (no tab trap), and the first arrival by keyboard selects the
// first ____ blank · Esc then Tab leaves the editor (CodeMirror's tab-focus mode),
// even when that Esc also closes a suggestion list · Ctrl/Cmd+Enter closes the list
// and checks. A click or a tap on a blank selects all of it, as Tab does.
// Long lines wrap on screen (only there: the text keeps its one line), and a wrapped
// line's continuation starts under its own indentation, so Python's blocks still read.
import { basicSetup } from "codemirror";
import { acceptCompletion, closeCompletion } from "@codemirror/autocomplete";
import { indentWithTab, insertNewlineAndIndent } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, foldEffect, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorSelection, EditorState, Prec, RangeSetBuilder } from "@codemirror/state";
import { Decoration, EditorView, MatchDecorator, ViewPlugin, keymap } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import FACTS from "../runner/facts.json" with { type: "json" };

const BLANK = new RegExp(FACTS.blank.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g");

/** Marks every ____ blank so learners see where to type. */
const blankMarks = ViewPlugin.fromClass(class {
  constructor(view) {
    this.matcher = new MatchDecorator({
      regexp: BLANK,
      decoration: Decoration.mark({ class: "cm-blank", attributes: { title: "Blank: type your answer here" } }),
    });
    this.decorations = this.matcher.createDeco(view);
  }
  update(update) { this.decorations = this.matcher.updateDeco(update, this.decorations); }
}, { decorations: (plugin) => plugin.decorations });

/** The blank (its from and to) that holds `pos`, or null. */
function blankAt(doc, pos) {
  const line = doc.lineAt(pos);
  for (const found of line.text.matchAll(BLANK)) {
    const from = line.from + found.index;
    if (from <= pos && pos <= from + found[0].length) return { from, to: from + found[0].length };
  }
  return null;
}

/** A click or a tap on a blank selects the whole blank, so what the learner types
 * replaces it: a cursor inside it would leave `__x__`, which Python reads as a name.
 * Only a plain press on the blank itself (not a drag, a double click, or a press beside
 * it). The press is read on mousedown and acted on after the release, once CodeMirror
 * (or, for a touch, the browser) has put the cursor where it landed: no "click" event
 * can be relied on, since CodeMirror may redraw the line under the pointer, and a click
 * whose press and release hit different nodes is never fired. */
let pressedBlank = null;
const blankClick = EditorView.domEventHandlers({
  mousedown(event, view) {
    pressedBlank = null;
    const mark = event.target instanceof Element ? event.target.closest(".cm-blank") : null;
    if (event.button !== 0 || event.detail > 1 || event.shiftKey || !mark) return false;
    // from the node, not the coordinates: right after a scroll CodeMirror may not have
    // measured the lines yet, and posAtCoords would then name another line
    const pos = view.posAtDOM(mark, 0);
    pressedBlank = { view, ...blankAt(view.state.doc, pos) };
    return false;
  },
  mouseup(_event, view) {
    const blank = pressedBlank;
    pressedBlank = null;
    if (!blank || blank.view !== view || blank.from === undefined) return false;
    setTimeout(() => {
      const { main } = view.state.selection;
      const still = view.state.sliceDoc(blank.from, blank.to) === FACTS.blank;
      if (still && main.empty && main.head >= blank.from && main.head <= blank.to) {
        view.dispatch({ selection: { anchor: blank.from, head: blank.to }, userEvent: "select.pointer" });
      }
    }, 30);
    return false;
  },
});

/** Each line's indentation, in characters (a tab counts as the indent unit). */
const indentWidth = (text) => /^[ \t]*/.exec(text)[0].replaceAll("\t", "    ").length;

/** Wrapped lines keep their indentation: a line indented by n characters is padded by n
 * and its first row pulled back by n, so every row after the first starts under its
 * first character, not at the margin. */
const indentedWrap = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = this.build(view); }
  update(update) { if (update.docChanged || update.viewportChanged) this.decorations = this.build(update.view); }
  build(view) {
    const builder = new RangeSetBuilder();
    for (const { from, to } of view.visibleRanges) {
      for (let pos = from; pos <= to;) {
        const line = view.state.doc.lineAt(pos);
        const n = indentWidth(line.text);
        if (n) {
          builder.add(line.from, line.from, Decoration.line({
            attributes: { style: `padding-left: calc(${n}ch + 6px); text-indent: -${n}ch` } }));
        }
        pos = line.to + 1;
      }
    }
    return builder.finish();
  }
}, { decorations: (plugin) => plugin.decorations });

/** Colours from Material's code palette, so light and dark schemes both read well. */
const materialHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.operatorKeyword], color: "var(--md-code-hl-keyword-color)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--md-code-hl-string-color)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--md-code-hl-number-color)" },
  { tag: [tags.comment, tags.lineComment], color: "var(--md-code-hl-comment-color)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.function(tags.definition(tags.variableName))], color: "var(--md-code-hl-function-color)" },
  { tag: [tags.className, tags.definition(tags.className)], color: "var(--md-code-hl-constant-color)" },
  { tag: [tags.operator, tags.punctuation], color: "var(--md-code-hl-operator-color)" },
  { tag: [tags.self, tags.special(tags.variableName)], color: "var(--md-code-hl-special-color)" },
]);

const materialTheme = EditorView.theme({
  "&": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-fg-color)", fontSize: "0.8rem" },
  ".cm-content": { fontFamily: "var(--md-code-font-family, monospace)", caretColor: "var(--md-code-fg-color)" },
  // opaque, or a line scrolled sideways shows through the numbers: the muted colour is mixed, not faded
  ".cm-gutters": { backgroundColor: "var(--md-code-bg-color)", border: "none",
    color: "color-mix(in srgb, var(--md-code-fg-color) 85%, var(--md-code-bg-color))" },
  "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)" },
  ".cm-activeLine": { backgroundColor: "transparent" },
  ".cm-activeLineGutter": { backgroundColor: "transparent", fontWeight: "700" },
});

/** Arriving by Tab (keyboard navigation), Tab and Shift+Tab move on, as for any other
 * field; the first other key makes Tab indent again. A pointer press (mouse, touch, pen)
 * is not keyboard navigation, whatever key came before it. */
let lastKeyWasTab = false;
addEventListener("keydown", (event) => { lastKeyWasTab = event.key === "Tab"; }, true);
addEventListener("pointerdown", () => { lastKeyWasTab = false; }, true);
addEventListener("mousedown", () => { lastKeyWasTab = false; }, true);

/** Editors that have had the focus once (by any means): only the first arrival by
 * keyboard moves the cursor. */
const focusedBefore = new WeakSet();

/** Select the first ____ blank, if the code still has one, and bring it to the middle
 * of the screen (not its bottom edge: the lines around it are what the learner needs). */
function selectFirstBlank(view) {
  const at = view.state.doc.toString().indexOf(FACTS.blank);
  if (at < 0) return;
  view.dispatch({ selection: { anchor: at, head: at + FACTS.blank.length },
    effects: EditorView.scrollIntoView(at, { y: "center" }) });
}

const noTabTrap = Prec.highest(EditorView.domEventHandlers({
  focus(_event, view) {
    view.setTabFocusMode(lastKeyWasTab);
    const first = !focusedBefore.has(view);
    focusedBefore.add(view);
    // after the browser has placed its own cursor (start of the text) on a Tab arrival,
    // unless a key came first (Ctrl+A pressed at once keeps the whole text selected)
    if (first && lastKeyWasTab) {
      const arrived = view.state.selection;
      setTimeout(() => {
        if (view.hasFocus && (view.state.selection.eq(arrived) || view.state.selection.main.head === 0)) selectFirstBlank(view);
      });
    }
  },
  keydown(event, view) {
    // Esc always arms "Tab leaves", also when a keymap (the suggestion list's) takes the
    // Esc itself and CodeMirror's own Esc handling never runs
    if (event.key === "Escape") view.setTabFocusMode(2000);
    else if (!["Tab", "Shift", "Control", "Alt", "Meta"].includes(event.key)) view.setTabFocusMode(false);
    return false; // the key itself still does what it does
  },
}));

/** The def and class blocks of Python `text` (found by indentation, as Python reads
 * them): [{first, last}] line numbers, outer blocks before the blocks inside them. */
function blocks(doc) {
  const indent = (line) => line.text.length - line.text.trimStart().length;
  const found = [];
  for (let n = 1; n <= doc.lines; n++) {
    const head = doc.line(n);
    if (!/^\s*(def|class)\b.*:\s*(#.*)?$/.test(head.text)) continue;
    let last = n;
    for (let m = n + 1; m <= doc.lines; m++) {
      const line = doc.line(m);
      if (!line.text.trim()) continue;
      if (indent(line) <= indent(head)) break;
      last = m;
    }
    if (last > n) found.push({ first: n, last });
  }
  return found;
}

const blockText = (doc, { first, last }) => doc.sliceString(doc.line(first).from, doc.line(last).to);

/** The top-level code after the last def or class (the "Try it" lines that a Run
 * prints from): {first, last} line numbers, or null when it is one line or none. */
function tailCode(doc) {
  let first = 0;
  let last = 0;
  for (let n = doc.lines; n >= 1; n--) {
    const { text } = doc.line(n);
    if (!text.trim()) continue;
    if (/^\s/.test(text) || /^(def|class|@)/.test(text)) break;
    if (!last) last = n;
    first = n;
  }
  return first && last > first ? { first, last } : null;
}

/** Fold the given code: every def or class block that is exactly as in the starter
 * and holds no blank, outermost first. A skip test then shows the blanks and what
 * they need, not the rest of the engine (whose methods answer other questions), and
 * after a reload the learner's own lines stay open too. What the blank's own function
 * holds stays open: it is what the blank needs (backward's build, which fills topo).
 * The fold gutter and the placeholder open any of it on purpose. */
function foldGiven(view, starter) {
  const { doc } = view.state;
  const starterDoc = view.state.toText(starter);
  const starterBlocks = blocks(starterDoc);
  const holdsBlank = (b) => blockText(starterDoc, b).includes(FACTS.blank);
  const blankFunctions = starterBlocks.filter((b) => holdsBlank(b) && /^\s*def\b/.test(starterDoc.line(b.first).text));
  const inBlankFunction = (b) => blankFunctions.some((f) => f.first < b.first && b.last <= f.last);
  const given = new Set(starterBlocks.filter((b) => !holdsBlank(b) && !inBlankFunction(b)).map((b) => blockText(starterDoc, b)));
  const effects = [];
  let foldedTo = 0;
  for (const block of blocks(doc)) {
    if (block.first <= foldedTo || !given.has(blockText(doc, block))) continue;
    effects.push(foldEffect.of({ from: doc.line(block.first).to, to: doc.line(block.last).to }));
    foldedTo = block.last;
  }
  // the lines that try the code out: a Check never runs them, and a skip test asks
  // only for what the blanks need
  const tail = tailCode(doc);
  const starterTail = tailCode(starterDoc);
  if (tail && starterTail && blockText(doc, tail) === blockText(starterDoc, starterTail) && !blockText(doc, tail).includes(FACTS.blank)) {
    effects.push(foldEffect.of({ from: doc.line(tail.first).to, to: doc.line(tail.last).to }));
  }
  if (effects.length) view.dispatch({ effects });
}

/** `selection` ({anchor, head}) carries the cursor over from the plain-text editor;
 * with `fold` (the starter), the code given in it is folded around the blanks (see foldGiven). */
export function createEditor(parent, { doc, selection, label, describedBy = null, onChange, onCheck, fold = null }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      selection: selection ? EditorSelection.single(selection.anchor, selection.head) : undefined,
      extensions: [
        Prec.highest(keymap.of([
          { key: "Mod-Enter", run: (v) => { closeCompletion(v); onCheck(); return true; } },
          { key: "Enter", run: insertNewlineAndIndent },
          { key: "Tab", run: acceptCompletion },
        ])),
        basicSetup,
        keymap.of([indentWithTab]),
        indentUnit.of("    "),
        python(),
        syntaxHighlighting(materialHighlight),
        materialTheme,
        noTabTrap,
        blankMarks,
        blankClick,
        EditorView.lineWrapping,
        indentedWrap,
        // tabindex: axe sees the scroller holds a tab stop
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0", ...(describedBy ? { "aria-describedby": describedBy } : {}) }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
      ],
    }),
  });
  if (fold) foldGiven(view, fold);
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => { focusedBefore.add(view); view.focus(); }, // a focus the page gives: the cursor stays
  };
}
