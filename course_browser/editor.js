// The code editor: CodeMirror 6, composed from its own extensions.
// Loaded only on pages that have an exercise (a split chunk of course.js).
//
// Keys: Enter keeps the indent · Tab indents · Esc then Tab leaves the editor
// (CodeMirror's tab-focus mode) · Ctrl/Cmd+Enter checks.
import { basicSetup } from "codemirror";
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorSelection, EditorState, Prec } from "@codemirror/state";
import { Decoration, EditorView, MatchDecorator, ViewPlugin, keymap } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import FACTS from "../grader/facts.json" with { type: "json" };

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
  ".cm-gutters": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-fg-color)", opacity: "0.85", border: "none" },
  "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)" },
  ".cm-activeLine": { backgroundColor: "transparent" },
  ".cm-activeLineGutter": { backgroundColor: "transparent", fontWeight: "700" },
});

/** `selection` ({anchor, head}) carries the cursor over from the plain-text editor. */
export function createEditor(parent, { doc, selection, label, onChange, onCheck }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      selection: selection ? EditorSelection.single(selection.anchor, selection.head) : undefined,
      extensions: [
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onCheck(); return true; } }])),
        basicSetup,
        keymap.of([indentWithTab]),
        indentUnit.of("    "),
        python(),
        syntaxHighlighting(materialHighlight),
        materialTheme,
        EditorView.lineWrapping, // no sideways scrolling, on phones included
        blankMarks,
        EditorView.contentAttributes.of({ "aria-label": label }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
      ],
    }),
  });
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
  };
}
