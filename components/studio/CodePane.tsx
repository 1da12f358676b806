"use client";
// The TypeScript of the compiled bundle: what "Export → TypeScript" will download. "Edit code" turns
// it into a textarea; "Apply code" parses it (never runs it) and replaces the document as one undo
// step, or lists the problems with line:column and changes nothing.
import { useMemo, useState } from "react";
import { bundleToTypeScript } from "@/lib/codegen/write-typescript";
import { applyCode } from "@/lib/studio/apply-code";
import { useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";

function codeFor(compiled: ReturnType<typeof useCompiled>): string {
  if (!compiled.valid) return "// Fix the problems to see the code.";
  try {
    return bundleToTypeScript(compiled.bundle);
  } catch (error) {
    return `// The code could not be generated: ${(error as Error).message}`;
  }
}

const PANE_BUTTON = "rounded px-2 py-0.5 text-xs font-semibold hover:bg-surface-muted";

function CodeEditor({ initial, onDone }: { initial: string; onDone(): void }) {
  const store = useStudioStore();
  const [source, setSource] = useState(initial);
  const [problems, setProblems] = useState<string[]>([]);
  const apply = () => {
    const result = applyCode(store.getState().history.present, source);
    if (!result.ok) {
      setProblems(result.problems);
      return;
    }
    setProblems([]);
    store.getState().edit(() => result.graph);
    store.getState().setStatus({ tone: "info", text: "Applied the code to the canvas" });
    onDone();
  };
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-1 px-3 pb-2">
      <div className="flex gap-1">
        <button type="button" className={`${PANE_BUTTON} bg-accent text-accent-contrast`} onClick={apply}>
          Apply code
        </button>
        <button type="button" className={PANE_BUTTON} onClick={onDone}>
          Cancel
        </button>
      </div>
      {problems.length ? (
        <ul aria-label="Code problems" className="max-h-16 overflow-auto font-mono text-[11px] text-danger">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      <textarea
        aria-label="TypeScript code"
        spellCheck={false}
        value={source}
        onChange={(event) => setSource(event.target.value)}
        className="min-h-0 flex-1 resize-none rounded border border-border bg-surface p-1 font-mono text-[11px]"
      />
    </div>
  );
}

export function CodePane() {
  const compiled = useCompiled();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const code = useMemo(() => (open ? codeFor(compiled) : ""), [open, compiled]);
  return (
    <section aria-label="Code" className="flex min-h-0 flex-1 flex-col border-l border-border">
      <div className="flex items-center gap-1 px-1 py-0.5">
        <button
          type="button"
          aria-expanded={open}
          onClick={() => {
            setOpen(!open);
            setEditing(false);
          }}
          className={PANE_BUTTON}
        >
          {open ? "Hide code" : "Show code"}
        </button>
        <button
          type="button"
          aria-pressed={editing}
          onClick={() => {
            setOpen(true);
            setEditing(!editing);
          }}
          className={PANE_BUTTON}
        >
          Edit code
        </button>
      </div>
      {open && editing ? (
        <CodeEditor initial={codeFor(compiled)} onDone={() => setEditing(false)} />
      ) : open ? (
        <pre
          data-testid="generated-code"
          className="min-h-0 flex-1 overflow-auto px-3 pb-2 font-mono text-[11px]"
        >
          {code}
        </pre>
      ) : null}
    </section>
  );
}
