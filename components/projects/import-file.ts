// Pure helpers of the import control: the content type a file is sent with, and where a problem is.
import type { ImportDiagnostic } from "@/lib/contracts/project";

export const IMPORT_ACCEPT = ".ts,.zip,.json";

/** The content type the import route expects for a file name, or null when the kind is not importable. */
export function importContentType(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".json")) return "application/json";
  if (lower.endsWith(".zip")) return "application/zip";
  if (lower.endsWith(".ts")) return "application/typescript";
  return null;
}

/** `file:line:column`, `line:column`, or the bundle path when the problem has no source position. */
export function diagnosticLocation(diagnostic: ImportDiagnostic): string {
  if (diagnostic.line !== undefined) {
    const position = `${diagnostic.line}:${diagnostic.column ?? 1}`;
    return diagnostic.file ? `${diagnostic.file}:${position}` : position;
  }
  return diagnostic.path ?? "";
}
