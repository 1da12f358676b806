// parseBundle: the edge where untrusted JSON becomes a Bundle, with every problem (shape, unknown keys, cross-references) in one list.
import { type Bundle, BundleSchema } from "./bundle";
import { type Diagnostic, hasErrors, sortDiagnostics } from "./diagnostics";
import { findUnknownProperties } from "./unknown-properties";
import { validateBundle } from "./validate-bundle";
import { diagnosticsFromZodError } from "./zod-issues";

/**
 * `ok` means "no errors": the bundle can be saved and run, and `diagnostics` holds only warnings.
 * When the shape parsed but cross-reference rules found errors, `bundle` is still given so editors
 * can keep working with it.
 */
export type ParseBundleResult =
  | { ok: true; bundle: Bundle; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[]; bundle?: Bundle };

export function parseBundle(input: unknown): ParseBundleResult {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "invalid_bundle",
          path: "",
          message:
            'A definitions bundle must be a JSON object like { "agents": [], "prompts": [], "models": [], "tools": [] }.',
        },
      ],
    };
  }
  const propertyDiagnostics = findUnknownProperties(BundleSchema, input);
  const parsed = BundleSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const diagnostics = [...diagnosticsFromZodError(parsed.error, input), ...propertyDiagnostics];
    return { ok: false, diagnostics: sortDiagnostics(diagnostics) };
  }
  const bundle = parsed.data;
  const diagnostics = sortDiagnostics([...propertyDiagnostics, ...validateBundle(bundle)]);
  return hasErrors(diagnostics) ? { ok: false, diagnostics, bundle } : { ok: true, bundle, diagnostics };
}
