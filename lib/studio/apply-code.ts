// "Apply code": read edited TypeScript (parsed, never executed) into the document. Errors change
// nothing and come back as "line:column message" lines for the pane.
import { type SourceDiagnostic, typeScriptToBundle } from "@/lib/codegen";
import type { Graph } from "@/lib/graph";
import { documentFromEditedBundle } from "./document-layout";

export type ApplyCodeResult = { ok: true; graph: Graph } | { ok: false; problems: string[] };

export function formatSourceDiagnostic(diagnostic: SourceDiagnostic): string {
  return `${diagnostic.line}:${diagnostic.column} ${diagnostic.severity}: ${diagnostic.message}`;
}

export function applyCode(previous: Graph, source: string): ApplyCodeResult {
  const read = typeScriptToBundle(source);
  if (!read.ok || !read.bundle) {
    const errors = read.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
    const shown = errors.length > 0 ? errors : read.diagnostics;
    return {
      ok: false,
      problems: shown.length > 0 ? shown.map(formatSourceDiagnostic) : ["The code could not be read."],
    };
  }
  return { ok: true, graph: documentFromEditedBundle(previous, read.bundle) };
}
