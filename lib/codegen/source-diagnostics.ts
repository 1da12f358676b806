// Problems found while reading TypeScript definitions, pinned to a line and column (and a file for projects).
import { z } from "zod";
import { type Diagnostic, formatPath, type PathSegment } from "@/lib/standard";
import type { SourcePosition } from "./source-tokens";

export const SourceDiagnosticSchema = z.object({
  severity: z.enum(["error", "warning"]),
  /** A code of lib/standard's diagnostics, or one of SOURCE_DIAGNOSTIC_CODES. */
  code: z.string(),
  /** Where in the bundle the problem is (`prompts[1].requiredSchema`), "" for the module itself. */
  path: z.string(),
  message: z.string(),
  line: z.int().positive(),
  column: z.int().positive(),
  /** Set when the source is a project's file map. */
  file: z.string().optional(),
});
export type SourceDiagnostic = z.infer<typeof SourceDiagnosticSchema>;

export const SOURCE_DIAGNOSTIC_CODES = [
  "syntax_error",
  "unsupported_syntax",
  "unsupported_import",
  "unknown_identifier",
  "duplicate_property",
  "duplicate_declaration",
  "wrong_definition_kind",
  "unlisted_definition",
  "unsupported_schema",
  "file_name_mismatch",
  "unexpected_file",
  "invalid_zip",
] as const;
export type SourceDiagnosticCode = (typeof SOURCE_DIAGNOSTIC_CODES)[number];

const START: SourcePosition = { line: 1, column: 1 };

/** Collects diagnostics and remembers where each bundle path was written, to place later (validation) problems. */
export class SourceReport {
  readonly diagnostics: SourceDiagnostic[] = [];
  private readonly positions = new Map<string, SourcePosition>();

  constructor(readonly file?: string) {}

  error(code: SourceDiagnosticCode, path: readonly PathSegment[], message: string, position = START): void {
    this.push("error", code, formatPath(path), message, position);
  }

  warning(code: SourceDiagnosticCode, path: readonly PathSegment[], message: string, position = START): void {
    this.push("warning", code, formatPath(path), message, position);
  }

  /** A problem found after reading (`code` any code), placed at the source that wrote `path` (a formatted path). */
  problem(
    code: string,
    path: string,
    message: string,
    severity: SourceDiagnostic["severity"] = "error",
  ): void {
    this.push(severity, code, path, message, this.positionOf(path));
  }

  remember(path: readonly PathSegment[], position: SourcePosition): void {
    this.positions.set(formatPath(path), position);
  }

  hasErrors(): boolean {
    return this.diagnostics.some((diagnostic) => diagnostic.severity === "error");
  }

  /** The position of a bundle path, or of its nearest written ancestor. */
  positionOf(path: string): SourcePosition {
    let current = path;
    for (;;) {
      const position = this.positions.get(current);
      if (position !== undefined) return position;
      const parent = current.replace(/(?:\.[^.[\]]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\])$/, "");
      if (parent === current) return this.positions.get("") ?? START;
      current = parent;
    }
  }

  /** A bundle diagnostic (from parseBundle) placed at the source that wrote the value. */
  place(diagnostic: Diagnostic): SourceDiagnostic {
    const { line, column } = this.positionOf(diagnostic.path);
    const placed: SourceDiagnostic = {
      severity: diagnostic.severity,
      code: diagnostic.code,
      path: diagnostic.path,
      message: diagnostic.message,
      line,
      column,
    };
    if (this.file !== undefined) placed.file = this.file;
    return placed;
  }

  private push(
    severity: SourceDiagnostic["severity"],
    code: string,
    path: string,
    message: string,
    position: SourcePosition,
  ): void {
    const diagnostic: SourceDiagnostic = { severity, code, path, message, ...position };
    if (this.file !== undefined) diagnostic.file = this.file;
    this.diagnostics.push(diagnostic);
  }
}
