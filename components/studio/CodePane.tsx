"use client";
// Read-only TypeScript of the compiled bundle: what "Export → TypeScript" will download.
import { useMemo, useState } from "react";
import { bundleToTypeScript } from "@/lib/codegen/write-typescript";
import { useCompiled } from "./useCompiled";

function codeFor(compiled: ReturnType<typeof useCompiled>): string {
  if (!compiled.valid) return "// Fix the problems to see the code.";
  try {
    return bundleToTypeScript(compiled.bundle);
  } catch (error) {
    return `// The code could not be generated: ${(error as Error).message}`;
  }
}

export function CodePane() {
  const compiled = useCompiled();
  const [open, setOpen] = useState(false);
  const code = useMemo(() => (open ? codeFor(compiled) : ""), [open, compiled]);
  return (
    <section aria-label="Code" className="flex min-h-0 flex-1 flex-col border-l border-border">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="px-3 py-1 text-left text-xs font-semibold"
      >
        {open ? "Hide code" : "Show code"}
      </button>
      {open ? (
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
