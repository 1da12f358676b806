"use client";
// The canvas as TypeScript in a CodeMirror editor, kept in sync both ways: canvas edits rewrite only
// the changed text (the cursor stays), and typing applies to the canvas after a short pause as one
// undo step (Ctrl/⌘+Enter applies at once). Code that cannot be read marks its line and leaves the
// canvas as it was; the canvas's own problems are marked on the lines that write them. The node
// selected on the canvas has its declaration highlighted and scrolled into view, unless the user is
// working in the pane (focus or unapplied typing), and the pane never takes focus for it.
import { nextDiagnostic, setDiagnostics } from "@codemirror/lint";
import { Annotation, EditorState, Prec, StateEffect, StateField, Transaction } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, keymap } from "@codemirror/view";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { compileGraph, type Graph } from "@/lib/graph";
import {
  codeMarkers,
  decideCodeEdit,
  documentToTypeScript,
  formatSourceDiagnostic,
  minimalChange,
  sameDefinitionObjects,
} from "@/lib/studio/apply-code";
import { declarationLines, prepareDeclarations } from "@/lib/studio/code-declaration";
import { codeMirrorKey, shortcutLabel } from "@/lib/studio/shortcuts";
import { codeEditorExtensions } from "./code-editor-setup";
import { useUnappliedFields } from "./ProblemsPanel";
import { isMacPlatform } from "./platform";
import { useStudioStore } from "./StudioStoreContext";
import { CODE_PANE_SHORTCUTS } from "./studio-commands";
import { useCompiled } from "./useCompiled";

/** How long typing must pause before the code is applied to the canvas. */
export const APPLY_DELAY_MS = 600;

type PaneState =
  | { kind: "synced" }
  | { kind: "editing" }
  /** The code cannot be read; `problem` is its first error, "line:column error: message". */
  | { kind: "unreadable"; problem: string; line: number }
  /** The canvas changed while the code held unapplied edits: the edits are kept, nothing applied. */
  | { kind: "stale" };

/** Marks a transaction as the canvas's own change, which must not be applied back to it. */
const fromCanvas = Annotation.define<boolean>();

/** Sets (or clears) the highlighted declaration: document offsets of its first and last line starts. */
const setFollowed = StateEffect.define<{ from: number; to: number } | null>();
const followedLine = Decoration.line({ class: "cm-followed", attributes: { "data-followed": "" } });

/** The selected node's declaration as line decorations, kept in place while the text changes around it. */
const followedField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, transaction) {
    let next = decorations.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setFollowed)) continue;
      if (!effect.value) {
        next = Decoration.none;
        continue;
      }
      const { doc } = transaction.state;
      const first = doc.lineAt(effect.value.from).number;
      const last = doc.lineAt(effect.value.to).number;
      const lines = [];
      for (let line = first; line <= last; line++) lines.push(followedLine.range(doc.line(line).from));
      next = Decoration.set(lines);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

interface Sync {
  /** The document the editor's text was last made from or applied to. */
  graph: Graph;
  /** The code written for `graph` (the text may differ in formatting after the user's edits). */
  code: string;
  /** The text has edits the canvas does not have yet. */
  dirty: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const PANE_BUTTON =
  "rounded px-2 py-0.5 text-xs font-semibold hover:bg-surface-muted disabled:opacity-50 disabled:hover:bg-transparent";

export function CodePane({ actions }: { actions?: ReactNode }) {
  const store = useStudioStore();
  const { diagnostics } = useCompiled();
  const hostRef = useRef<HTMLDivElement>(null);
  const controls = useRef<{ applyNow(): void; takeCanvasCode(): void } | null>(null);
  const [pane, setPane] = useState<PaneState>({ kind: "synced" });
  // The Problems panel lists code that cannot be read beside the canvas's own problems.
  const unreadableLine = pane.kind === "unreadable" ? pane.line : null;
  const unreadableMessage = pane.kind === "unreadable" ? pane.problem : null;
  useEffect(() => {
    const unreadable = unreadableLine !== null && unreadableMessage !== null;
    store.getState().setCodeProblem(unreadable ? { line: unreadableLine, message: unreadableMessage } : null);
  }, [store, unreadableLine, unreadableMessage]);
  useEffect(() => () => store.getState().setCodeProblem(null), [store]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const initial = store.getState().history.present;
    const sync: Sync = {
      graph: initial,
      code: documentToTypeScript(initial),
      dirty: false,
      timer: undefined,
    };

    /** Counts follows, so a scroll left for later is dropped when another follow came first. */
    let followToken = 0;
    let destroyed = false;

    const refreshMarkers = () => {
      const text = view.state.doc.toString();
      const diagnostics = codeMarkers(text, compileGraph(store.getState().history.present).diagnostics);
      view.dispatch(setDiagnostics(view.state, diagnostics));
    };

    /**
     * Highlights the selected node's declaration; with `scroll`, brings it into view when it is not
     * already, but never while the user works in the pane (focus or unapplied typing), and never focuses.
     */
    const follow = (scroll: boolean) => {
      followToken++;
      if (sync.dirty) return;
      const { selection, history } = store.getState();
      const [nodeId] = selection.nodeIds;
      const lines =
        nodeId !== undefined && selection.nodeIds.length === 1
          ? declarationLines(view.state.doc.toString(), history.present, nodeId)
          : null;
      if (!lines) {
        view.dispatch({ effects: setFollowed.of(null) });
        return;
      }
      const { doc } = view.state;
      const from = doc.line(Math.min(lines.from, doc.lines)).from;
      const to = doc.line(Math.min(lines.to, doc.lines)).from;
      const effects: StateEffect<unknown>[] = [setFollowed.of({ from, to })];
      if (scroll && !view.hasFocus) {
        const { scrollTop, clientHeight } = view.scrollDOM;
        const shown =
          view.lineBlockAt(from).top >= scrollTop && view.lineBlockAt(to).bottom <= scrollTop + clientHeight;
        if (!shown) {
          // Highlight now, scroll in a task of its own: on a long document each is a few tens of
          // milliseconds of editor work, together they were one long task.
          view.dispatch({ effects });
          const token = ++followToken;
          setTimeout(() => {
            if (token !== followToken || destroyed || sync.dirty || view.hasFocus) return;
            view.dispatch({ effects: EditorView.scrollIntoView(from, { y: "start", yMargin: 24 }) });
          });
          return;
        }
      }
      view.dispatch({ effects });
    };

    // The first declaration lookup reads the whole code (~100 ms on a 300-node canvas): done while
    // idle, so selecting a card does not pay for it.
    let idleRead: number | undefined;
    const prepareSoon = () => {
      if (typeof requestIdleCallback !== "function" || idleRead !== undefined) return;
      idleRead = requestIdleCallback(
        () => {
          idleRead = undefined;
          prepareDeclarations(view.state.doc.toString());
        },
        { timeout: 3000 },
      );
    };

    const cancelTimer = () => {
      if (sync.timer !== undefined) clearTimeout(sync.timer);
      sync.timer = undefined;
    };

    const applyNow = () => {
      cancelTimer();
      const present = store.getState().history.present;
      const decision = decideCodeEdit(present, view.state.doc.toString());
      if (decision.kind === "unreadable") {
        const first = decision.diagnostics.find((diagnostic) => diagnostic.severity === "error");
        setPane({
          kind: "unreadable",
          problem: first ? formatSourceDiagnostic(first) : "The code could not be read.",
          line: first?.line ?? 1,
        });
        refreshMarkers();
        return;
      }
      sync.dirty = false;
      if (decision.kind === "apply") {
        // Set before the edit: the store notifies synchronously and must see this as our own change.
        sync.graph = decision.graph;
        sync.code = documentToTypeScript(decision.graph);
        store.getState().edit(() => decision.graph);
        store.getState().setStatus({ tone: "info", text: "Applied the code to the canvas" });
      } else {
        sync.graph = present;
        sync.code = documentToTypeScript(present);
      }
      setPane({ kind: "synced" });
      refreshMarkers();
      follow(false);
    };

    /** Replaces the text with the canvas's code, changing only what differs so the cursor stays. */
    const writeCanvasCode = (graph: Graph, code: string) => {
      const change = minimalChange(view.state.doc.toString(), code);
      sync.graph = graph;
      sync.code = code;
      sync.dirty = false;
      if (change) {
        view.dispatch({
          changes: change,
          annotations: [fromCanvas.of(true), Transaction.addToHistory.of(false)],
        });
      }
      setPane({ kind: "synced" });
      refreshMarkers();
      follow(false);
      prepareSoon();
    };

    const onCanvasChange = (graph: Graph) => {
      if (graph === sync.graph) return;
      if (sameDefinitionObjects(graph, sync.graph)) {
        // A drag frame or a note: cheap to recognise, and nothing in the code or its markers changes.
        sync.graph = graph;
        return;
      }
      const code = documentToTypeScript(graph);
      if (code === sync.code) {
        // Moves, sizes, notes: nothing the code says changed, so the user's text stays as it is.
        sync.graph = graph;
        refreshMarkers();
        return;
      }
      if (sync.dirty) {
        cancelTimer();
        setPane({ kind: "stale" });
        return;
      }
      writeCanvasCode(graph, code);
    };

    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: sync.code,
        extensions: [
          Prec.highest(
            keymap.of([
              {
                key: codeMirrorKey(CODE_PANE_SHORTCUTS.apply.keys),
                run: () => {
                  applyNow();
                  return true;
                },
              },
              { key: codeMirrorKey(CODE_PANE_SHORTCUTS.nextProblem.keys), run: nextDiagnostic },
            ]),
          ),
          codeEditorExtensions("TypeScript code"),
          followedField,
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            if (update.transactions.every((transaction) => transaction.annotation(fromCanvas))) return;
            sync.dirty = true;
            cancelTimer();
            sync.timer = setTimeout(applyNow, APPLY_DELAY_MS);
            setPane((current) => (current.kind === "stale" ? current : { kind: "editing" }));
          }),
          EditorView.domEventHandlers({
            blur: () => {
              if (sync.timer !== undefined) applyNow();
            },
          }),
        ],
      }),
    });
    refreshMarkers();
    follow(true);
    prepareSoon();
    controls.current = {
      applyNow,
      takeCanvasCode: () => {
        cancelTimer();
        const present = store.getState().history.present;
        writeCanvasCode(present, documentToTypeScript(present));
      },
    };
    // Following a new selection scrolls the editor, which costs tens of milliseconds on a large
    // document: it waits until the pointer is released (a card picked up to drag moves at once) and
    // runs after the canvas has painted the selection.
    let pointerHeld = false;
    let followPending = false;
    let followFrame: number | undefined;
    const followSoon = () => {
      followPending = true;
      if (pointerHeld || followFrame !== undefined) return;
      followFrame = requestAnimationFrame(() => {
        followFrame = undefined;
        setTimeout(() => {
          if (!followPending || pointerHeld) return;
          followPending = false;
          follow(true);
        });
      });
    };
    const onPointerDown = () => {
      pointerHeld = true;
    };
    const onPointerUp = () => {
      pointerHeld = false;
      if (followPending) followSoon();
    };
    window.addEventListener("pointerdown", onPointerDown, true);
    window.addEventListener("pointerup", onPointerUp, true);
    window.addEventListener("pointercancel", onPointerUp, true);
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.history.present !== previous.history.present) onCanvasChange(state.history.present);
      if (state.selection !== previous.selection) followSoon();
    });
    return () => {
      window.removeEventListener("pointerdown", onPointerDown, true);
      window.removeEventListener("pointerup", onPointerUp, true);
      window.removeEventListener("pointercancel", onPointerUp, true);
      if (followFrame !== undefined) cancelAnimationFrame(followFrame);
      if (idleRead !== undefined) cancelIdleCallback(idleRead);
      destroyed = true;
      followPending = false;
      // Leaving with a pending edit applies it, so closing the pane never loses typing.
      if (sync.timer !== undefined) applyNow();
      unsubscribe();
      controls.current = null;
      view.destroy();
    };
  }, [store]);

  const problems = diagnostics.length;
  // Inspector text that does not parse is in neither the canvas nor the code: the status says so.
  const unapplied = useUnappliedFields().length;
  return (
    <section aria-label="Code" className="flex min-h-0 min-w-0 flex-1 flex-col border-l border-border">
      <div className="flex min-h-7 flex-wrap items-center gap-x-2 px-3 py-0.5">
        <h2 className="text-xs font-semibold">Code</h2>
        {/* Short enough to be read whole beside the buttons; an unreadable line's own error is in
            Problems, on the line's marker and in the tooltip. */}
        <p
          role="status"
          aria-label="Code status"
          className={`min-w-0 flex-1 truncate text-xs ${pane.kind === "unreadable" || pane.kind === "stale" ? "text-danger" : "text-muted"}`}
          title={
            pane.kind === "unreadable"
              ? `${paneMessage(pane, problems, unapplied)}: ${pane.problem}`
              : undefined
          }
        >
          {paneMessage(pane, problems, unapplied)}
        </p>
        {pane.kind === "stale" ? (
          <button type="button" className={PANE_BUTTON} onClick={() => controls.current?.takeCanvasCode()}>
            Use the canvas&apos;s code
          </button>
        ) : null}
        <button
          type="button"
          className={PANE_BUTTON}
          disabled={pane.kind === "synced" || pane.kind === "unreadable"}
          onClick={() => controls.current?.applyNow()}
          title={
            pane.kind === "unreadable"
              ? `Nothing to apply: line ${pane.line} cannot be read. Fix it and the code applies when you pause.`
              : `Apply the code to the canvas now (${shortcutLabel(CODE_PANE_SHORTCUTS.apply.keys, isMacPlatform())})`
          }
        >
          Apply now
        </button>
        {actions}
      </div>
      <div ref={hostRef} data-testid="code-editor" className="min-h-0 flex-1 overflow-hidden" />
    </section>
  );
}

function paneMessage(pane: PaneState, problems: number, unapplied: number): string {
  switch (pane.kind) {
    case "editing":
      return "Editing: applies to the canvas when you pause";
    case "unreadable":
      return `Line ${pane.line} cannot be read; canvas unchanged`;
    case "stale":
      return "The canvas changed while your code was unapplied; your code is kept.";
    case "synced":
      if (unapplied > 0)
        return `In sync with the canvas, but not with ${unapplied === 1 ? "an inspector field" : `${unapplied} inspector fields`} that cannot be applied (see Problems)`;
      return problems === 0
        ? "In sync with the canvas"
        : `In sync with the canvas; ${problems} ${problems === 1 ? "problem is" : "problems are"} marked in the code`;
  }
}
