// Reads define* calls out of a parsed module: which names the imports bind, and each definition as JSON.
import type { PathSegment } from "@/lib/standard";
import { DEFINITION_KINDS, type DefinitionKind } from "./definition-identifiers";
import { type Readable, readJsonValue, readObjectProperties, UNREADABLE } from "./read-values";
import type { SourceReport } from "./source-diagnostics";
import type { Expression, SourceModule } from "./source-parser";
import { SCHEMA_FIELDS, SPEC_PACKAGE } from "./write-typescript";
import { readZodSchema } from "./zod-to-json-schema";

export interface ModuleBindings {
  /** Local name → the kind its define* function creates. */
  defines: Map<string, DefinitionKind>;
  /** The local name of zod's `z`, when imported. */
  zod?: string;
  /** Local name → module path, for default imports of relative files (a project's index). */
  defaultImports: Map<string, string>;
}

/** Imports the subset understands: define* from the spec package, `z` from zod, and default imports of relative files. */
export function readImports(module: SourceModule, report: SourceReport): ModuleBindings {
  const bindings: ModuleBindings = { defines: new Map(), defaultImports: new Map() };
  for (const statement of module.statements) {
    if (statement.kind !== "import") continue;
    const unsupported = (message: string) =>
      report.error("unsupported_import", [], message, statement.position);
    if (statement.source === SPEC_PACKAGE) {
      if (statement.defaultName !== undefined) unsupported(`Import named functions from "${SPEC_PACKAGE}".`);
      for (const name of statement.names) {
        const kind = DEFINITION_KINDS.find((entry) => entry.define === name.imported)?.kind;
        if (kind === undefined) {
          report.error(
            "unsupported_import",
            [],
            `"${name.imported}" is not supported; only defineAgent, definePrompt, defineModel and defineTool are.`,
            name.position,
          );
        } else bindings.defines.set(name.local, kind);
      }
    } else if (statement.source === "zod") {
      const z = statement.names.find((name) => name.imported === "z");
      if (statement.defaultName !== undefined || statement.names.length !== 1 || z === undefined) {
        unsupported('Import zod as `import { z } from "zod";`.');
      } else bindings.zod = z.local;
    } else if (statement.source.startsWith("./") && statement.defaultName !== undefined) {
      if (statement.names.length > 0) unsupported("Import only the default export of a definition file.");
      bindings.defaultImports.set(statement.defaultName, statement.source);
    } else {
      unsupported(
        `Imports from "${statement.source}" are not supported: definitions may only import from "${SPEC_PACKAGE}" and "zod".`,
      );
    }
  }
  return bindings;
}

/** The kind of a `defineX({...})` call, or undefined when the expression is not one. */
export function definitionCallKind(
  expression: Expression,
  bindings: ModuleBindings,
): DefinitionKind | undefined {
  if (expression.kind !== "call" || expression.callee.kind !== "identifier") return undefined;
  return bindings.defines.get(expression.callee.name);
}

/** Reads `defineX({...})` as the definition object it describes. */
export function readDefinitionCall(
  expression: Expression,
  kind: DefinitionKind,
  path: readonly PathSegment[],
  report: SourceReport,
  bindings: ModuleBindings,
): Readable<Record<string, unknown>> {
  report.remember(path, expression.position);
  const argument = expression.kind === "call" ? expression.args[0] : undefined;
  if (expression.kind !== "call" || expression.args.length !== 1 || argument?.kind !== "object") {
    report.error(
      "unsupported_syntax",
      path,
      "A define* call takes exactly one object literal holding the definition.",
      expression.position,
    );
    return UNREADABLE;
  }
  const schemaFields = SCHEMA_FIELDS[kind];
  return readObjectProperties(argument, path, report, (value, valuePath, key) => {
    if (!schemaFields.includes(key) || value.kind === "object")
      return readJsonValue(value, valuePath, report);
    if (bindings.zod === undefined) {
      report.error(
        "unsupported_schema",
        valuePath,
        `Write "${key}" as a JSON Schema object literal, or import z ("import { z } from \\"zod\\";") and use a z schema.`,
        value.position,
      );
      return UNREADABLE;
    }
    const schema = readZodSchema(value, valuePath, report, bindings.zod);
    return schema === UNREADABLE ? UNREADABLE : schema.schema;
  });
}
