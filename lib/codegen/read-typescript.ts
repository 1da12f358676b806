// TypeScript → bundle by parsing the module (never running it): each define* call becomes a
// definition, the default export says which go in the bundle and in what order, and the result is
// checked by parseBundle with its problems placed at the line that wrote the value.
import { type Bundle, parseBundle } from "@/lib/standard";
import { DEFINITION_KINDS, type DefinitionCollection, type DefinitionKind } from "./definition-identifiers";
import { definitionCallKind, type ModuleBindings, readDefinitionCall, readImports } from "./read-definitions";
import { UNREADABLE } from "./read-values";
import { type SourceDiagnostic, SourceReport } from "./source-diagnostics";
import { type Expression, parseSourceModule, type SourceModule } from "./source-parser";
import { type SourcePosition, SourceSyntaxError } from "./source-tokens";

export interface ReadBundleResult {
  /** No errors: the bundle can be saved as it is (diagnostics hold warnings only). */
  ok: boolean;
  /** Given whenever the definitions could be read and have the bundle's shape, even if cross-references fail. */
  bundle?: Bundle;
  diagnostics: SourceDiagnostic[];
}

export type RawBundle = Record<DefinitionCollection, unknown[]>;

export function emptyRawBundle(): RawBundle {
  return { agents: [], prompts: [], models: [], tools: [] };
}

/** Parses the source, or reports the syntax error and returns undefined. */
export function parseOrReport(source: string, report: SourceReport): SourceModule | undefined {
  try {
    return parseSourceModule(source);
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    report.error("syntax_error", [], error.message, error.position);
    return undefined;
  }
}

/** Checks the raw bundle with parseBundle; `place` pins each bundle diagnostic on the source that wrote it. */
export function checkRawBundle(
  raw: RawBundle,
  sourceDiagnostics: SourceDiagnostic[],
  place: (diagnostic: Parameters<SourceReport["place"]>[0]) => SourceDiagnostic,
): ReadBundleResult {
  if (sourceDiagnostics.some((diagnostic) => diagnostic.severity === "error")) {
    return { ok: false, diagnostics: sourceDiagnostics };
  }
  const parsed = parseBundle(raw);
  const diagnostics = [...sourceDiagnostics, ...parsed.diagnostics.map(place)];
  return { ok: parsed.ok, bundle: parsed.bundle, diagnostics };
}

interface Declaration {
  kind: DefinitionKind;
  expression: Expression;
  listed: boolean;
}

/** The definitions as written (not yet checked against the spec), with where each bundle path was written. */
export interface ReadDefinitionsResult {
  /** Absent when the module has errors of its own (syntax, unsupported code, unknown names). */
  raw?: RawBundle;
  /** The module's own problems (errors and warnings); the spec's rules are not checked here. */
  diagnostics: SourceDiagnostic[];
  /** Where a bundle path (`prompts[1].model`) was written, or its nearest written ancestor. */
  positionOf(path: string): SourcePosition;
}

export function typeScriptToBundle(source: string): ReadBundleResult {
  const read = readTypeScriptDefinitions(source);
  if (read.raw === undefined) return { ok: false, diagnostics: read.diagnostics };
  const { positionOf } = read;
  return checkRawBundle(read.raw, read.diagnostics, (diagnostic) => ({
    severity: diagnostic.severity,
    code: diagnostic.code,
    path: diagnostic.path,
    message: diagnostic.message,
    ...positionOf(diagnostic.path),
  }));
}

/** Reads the define* calls of a module as data, without the spec's checks (the studio's code pane applies these). */
export function readTypeScriptDefinitions(source: string): ReadDefinitionsResult {
  const report = new SourceReport();
  const positionOf = (path: string) => report.positionOf(path);
  const module = parseOrReport(source, report);
  if (module === undefined) return { diagnostics: report.diagnostics, positionOf };
  const bindings = readImports(module, report);
  const declarations = readDeclarations(module, report, bindings);
  const defaultExports = module.statements.filter((statement) => statement.kind === "export-default");
  for (const extra of defaultExports.slice(1)) {
    report.error(
      "duplicate_declaration",
      [],
      "A module has one default export; remove this one.",
      extra.position,
    );
  }
  const raw = emptyRawBundle();
  const listed = defaultExports[0];
  if (listed === undefined) {
    // No default export: every declared definition belongs to the bundle, in source order.
    const counts = { agents: 0, prompts: 0, models: 0, tools: 0 };
    for (const declaration of declarations.values()) {
      const collection = collectionOf(declaration.kind);
      const path = [collection, counts[collection]++];
      const value = readDefinitionCall(declaration.expression, declaration.kind, path, report, bindings);
      if (value !== UNREADABLE) raw[collection].push(value);
    }
  } else {
    readDefaultExport(listed.value, declarations, raw, report, bindings);
    for (const [name, declaration] of declarations) {
      if (declaration.listed) continue;
      report.warning(
        "unlisted_definition",
        [],
        `"${name}" is not listed in the default export, so it is not part of the bundle. Add it to "${collectionOf(declaration.kind)}" or remove it.`,
        declaration.expression.position,
      );
    }
  }
  return report.hasErrors()
    ? { diagnostics: report.diagnostics, positionOf }
    : { raw, diagnostics: report.diagnostics, positionOf };
}

function collectionOf(kind: DefinitionKind): DefinitionCollection {
  return DEFINITION_KINDS.find((entry) => entry.kind === kind)!.collection;
}

function readDeclarations(module: SourceModule, report: SourceReport, bindings: ModuleBindings) {
  const declarations = new Map<string, Declaration>();
  for (const statement of module.statements) {
    if (statement.kind !== "const") continue;
    if (declarations.has(statement.name)) {
      report.error(
        "duplicate_declaration",
        [],
        `"${statement.name}" is declared twice. Rename one of them.`,
        statement.position,
      );
      continue;
    }
    const kind = definitionCallKind(statement.value, bindings);
    if (kind === undefined) {
      report.error(
        "unsupported_syntax",
        [],
        `"${statement.name}" must be a defineAgent, definePrompt, defineModel or defineTool call (imported from "@standardagents/spec").`,
        statement.value.position,
      );
      continue;
    }
    declarations.set(statement.name, { kind, expression: statement.value, listed: false });
  }
  return declarations;
}

function readDefaultExport(
  value: Expression,
  declarations: Map<string, Declaration>,
  raw: RawBundle,
  report: SourceReport,
  bindings: ModuleBindings,
): void {
  if (value.kind !== "object") {
    report.error(
      "unsupported_syntax",
      [],
      "The default export must be the bundle: { agents: [...], prompts: [...], models: [...], tools: [...] }.",
      value.position,
    );
    return;
  }
  const seen = new Set<string>();
  for (const property of value.properties) {
    const entry = DEFINITION_KINDS.find((candidate) => candidate.collection === property.key);
    if (entry === undefined || seen.has(property.key)) {
      report.error(
        entry === undefined ? "unsupported_syntax" : "duplicate_property",
        [property.key],
        entry === undefined
          ? `The bundle has no "${property.key}"; it holds agents, prompts, models and tools.`
          : `"${property.key}" is written twice. Keep one.`,
        property.position,
      );
      continue;
    }
    seen.add(property.key);
    if (property.value.kind !== "array") {
      report.error(
        "unsupported_syntax",
        [entry.collection],
        `"${entry.collection}" must be a list of definitions.`,
        property.value.position,
      );
      continue;
    }
    for (const [index, element] of property.value.elements.entries()) {
      const path = [entry.collection, index];
      const expression = resolveElement(element, declarations, report, path);
      if (expression === undefined) continue;
      const kind = definitionCallKind(expression, bindings);
      if (kind !== entry.kind) {
        report.error(
          "wrong_definition_kind",
          path,
          kind === undefined
            ? `Expected a ${entry.define} call or the name of one.`
            : `This is a ${kind} (${DEFINITION_KINDS.find((candidate) => candidate.kind === kind)!.define}), listed under "${entry.collection}". Move it to "${collectionOf(kind)}".`,
          element.position,
        );
        continue;
      }
      const definition = readDefinitionCall(expression, kind, path, report, bindings);
      if (definition !== UNREADABLE) raw[entry.collection].push(definition);
    }
  }
}

function resolveElement(
  element: Expression,
  declarations: Map<string, Declaration>,
  report: SourceReport,
  path: Array<string | number>,
): Expression | undefined {
  if (element.kind !== "identifier") return element;
  const declaration = declarations.get(element.name);
  if (declaration === undefined) {
    report.error(
      "unknown_identifier",
      path,
      `"${element.name}" is not a definition declared in this module.`,
      element.position,
    );
    return undefined;
  }
  declaration.listed = true;
  return declaration.expression;
}

/**
 * A file's default export, directly or through a `const` of the file; `expected` says what the one
 * default export must be (the report's message when there is none, or more than one).
 */
export function defaultExportValue(
  module: SourceModule,
  report: SourceReport,
  expected: string,
): Expression | undefined {
  const exported = module.statements.filter((statement) => statement.kind === "export-default");
  if (exported.length !== 1) {
    report.error(
      exported.length === 0 ? "unsupported_syntax" : "duplicate_declaration",
      [],
      expected,
      exported[1]?.position,
    );
    return undefined;
  }
  const value = exported[0]!.value;
  if (value.kind !== "identifier") return value;
  const declaration = module.statements.find(
    (statement) => statement.kind === "const" && statement.name === value.name,
  );
  if (declaration?.kind !== "const") {
    report.error("unknown_identifier", [], `"${value.name}" is not declared in this file.`, value.position);
    return undefined;
  }
  return declaration.value;
}
