// What every validation rule receives, and the one way rules create diagnostics (path formatting, owning entity).
import type { Bundle } from "./bundle";
import { type BundleIndex, indexBundle } from "./bundle-index";
import {
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticSeverity,
  entityAtPath,
  formatPath,
  type PathSegment,
} from "./diagnostics";

export interface ValidationContext {
  bundle: Bundle;
  index: BundleIndex;
  report(
    severity: DiagnosticSeverity,
    code: DiagnosticCode,
    path: readonly PathSegment[],
    message: string,
  ): void;
}

export type ValidationRule = (context: ValidationContext) => void;

/** Runs rules over a bundle and returns their diagnostics in the order reported (callers sort). */
export function runValidationRules(bundle: Bundle, rules: readonly ValidationRule[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const context: ValidationContext = {
    bundle,
    index: indexBundle(bundle),
    report(severity, code, path, message) {
      const entity = entityAtPath(bundle, path);
      const diagnostic: Diagnostic = { severity, code, path: formatPath(path), message };
      diagnostics.push(entity ? { ...diagnostic, entity } : diagnostic);
    },
  };
  for (const rule of rules) rule(context);
  return diagnostics;
}

/** "Define a model named "gpt5" or pick one of: fast, smart." — the tail of "unknown reference" messages. */
export function defineOrPick(kind: string, name: string, available: Iterable<string>): string {
  const names = [...available].sort();
  const pick = names.length > 0 ? ` or pick one of: ${names.join(", ")}` : "";
  return `Define ${kind} named "${name}"${pick}.`;
}
