// CodeMirror 6 for the code pane: TypeScript highlighting with the app's colour tokens (light and
// dark follow app/globals.css), line numbers, lint markers, and an accessible name for the editor.
import { javascript } from "@codemirror/lang-javascript";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { lintGutter } from "@codemirror/lint";
import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { basicSetup } from "codemirror";

const highlightStyle = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.modifier, tags.operatorKeyword, tags.controlKeyword],
    color: "var(--code-keyword)",
  },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: "var(--code-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--code-number)" },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment],
    color: "var(--code-comment)",
    fontStyle: "italic",
  },
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "var(--code-property)" },
  {
    tag: [tags.definition(tags.variableName), tags.function(tags.variableName), tags.typeName],
    color: "var(--code-definition)",
  },
]);

const theme = EditorView.theme({
  "&": {
    height: "100%",
    backgroundColor: "var(--surface)",
    color: "var(--text)",
    fontSize: "12px",
  },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "-2px" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--text)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  ".cm-gutters": {
    backgroundColor: "var(--surface-muted)",
    color: "var(--text-muted)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--surface-muted) 70%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--border)", color: "var(--text)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
    { backgroundColor: "color-mix(in srgb, var(--accent) 28%, transparent)" },
  // The declaration of the node selected on the canvas: a faint accent wash with a bar in the gutter's edge.
  ".cm-followed": {
    backgroundColor: "color-mix(in srgb, var(--accent) 9%, transparent)",
    boxShadow: "inset 2px 0 0 var(--accent)",
  },
  ".cm-matchingBracket": { backgroundColor: "color-mix(in srgb, var(--accent) 20%, transparent)" },
  ".cm-tooltip": {
    backgroundColor: "var(--surface)",
    color: "var(--text)",
    border: "1px solid var(--border)",
    borderRadius: "4px",
  },
  ".cm-diagnostic": { fontFamily: "var(--font-sans)", fontSize: "12px" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--danger)" },
  ".cm-diagnostic-warning": { borderLeftColor: "var(--warning)" },
  ".cm-panels": { backgroundColor: "var(--surface-muted)", color: "var(--text)" },
});

/** Everything the code pane's editor needs except its change listeners. */
export function codeEditorExtensions(label: string): Extension[] {
  return [
    basicSetup,
    javascript({ typescript: true }),
    syntaxHighlighting(highlightStyle),
    lintGutter(),
    theme,
    // An explicit tab stop: axe (and some screen readers) do not count contenteditable as focusable content.
    EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
  ];
}
