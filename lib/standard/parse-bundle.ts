// parseBundle: the edge where untrusted JSON becomes a Bundle, with every problem (shape, unknown keys, cross-references) in one list.
import { type Bundle, BundleSchema } from "./bundle";
import {
  type Diagnostic,
  describeEntity,
  entityAtPath,
  formatPath,
  hasErrors,
  sortDiagnostics,
} from "./diagnostics";
import { findPrototypeKeys } from "./prototype-keys";
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
  // Refused before anything copies the input: assigning an own "__proto__" key would set a prototype.
  const prototypeKeys = prototypeKeyDiagnostics(input);
  if (prototypeKeys.length > 0) return { ok: false, diagnostics: prototypeKeys };
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

function prototypeKeyDiagnostics(input: unknown): Diagnostic[] {
  return findPrototypeKeys(input).map((path) => {
    const entity = entityAtPath(input, path);
    const diagnostic: Diagnostic = {
      severity: "error",
      code: "forbidden_property",
      path: formatPath(path),
      message: `${describeEntity(input, path)}: "__proto__" is not allowed as a property name (it would change what the object is, not add data). Rename or remove it.`,
    };
    return entity ? { ...diagnostic, entity } : diagnostic;
  });
}
