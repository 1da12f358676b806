// Helpers shared by this folder's tests: compact diagnostic summaries and fresh copies of the example bundles.
import type { Bundle } from "../../lib/standard/bundle";
import type { Diagnostic } from "../../lib/standard/diagnostics";
import { assetExampleBundle, cloneExample, minimalChatBundle } from "../../lib/standard/examples";

export type DiagnosticSummary = Pick<Diagnostic, "severity" | "code" | "path">;

/** What tests compare: severity, code and path (messages are checked separately where they matter). */
export function summarize(diagnostics: readonly Diagnostic[]): DiagnosticSummary[] {
  return diagnostics.map(({ severity, code, path }) => ({ severity, code, path }));
}

export function assetBundle(): Bundle {
  return cloneExample(assetExampleBundle);
}

export function chatBundle(): Bundle {
  return cloneExample(minimalChatBundle);
}

/** A JSON round trip: what a client would actually send. */
export function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
