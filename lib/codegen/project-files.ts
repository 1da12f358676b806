// A bundle as the file tree of a Standard Agents project (agents/<kind>/<name>.ts, one default export
// each, plus package.json, tsconfig.json and the spec's authoring API as a local package), and back. agents/index.ts lists every definition in the
// bundle's order, so a project round-trips exactly; without it, files are read in path order.
import type { Bundle, PathSegment } from "@/lib/standard";
import { type Code, literal, printCode } from "./code-printer";
import { assignDefinitionIdentifiers, DEFINITION_KINDS, type DefinitionKind } from "./definition-identifiers";
import { definitionCallKind, readDefinitionCall, readImports } from "./read-definitions";
import {
  checkRawBundle,
  defaultExportValue,
  emptyRawBundle,
  parseOrReport,
  type ReadBundleResult,
} from "./read-typescript";
import { setProperty, UNREADABLE } from "./read-values";
import { type SourceDiagnostic, SourceReport } from "./source-diagnostics";
import type { Expression } from "./source-parser";
import { EXPORT_DEPENDENCY_VERSIONS, SPEC_MODULE_FILES, SPEC_MODULE_FOLDER } from "./spec-module";
import { definitionFileSource, SPEC_PACKAGE } from "./write-typescript";
import type { ProjectFiles } from "./zip";

export const PROJECT_INDEX_FILE = "agents/index.ts";

/** File names come from definition names, so only names that are safe as one path segment are written. */
const SAFE_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

function definitionPath(folder: string, name: string): string {
  if (!SAFE_FILE_NAME.test(name)) {
    throw new Error(`Cannot export "${name}" as a file name; validate the bundle before exporting it.`);
  }
  return `agents/${folder}/${name}.ts`;
}

/** A package name npm accepts, from the project's display name. */
export function packageNameFor(projectName: string): string {
  const slug = projectName
    .toLowerCase()
    .replaceAll(/[^a-z0-9._-]+/g, "-")
    .replaceAll(/^[._-]+|[._-]+$/g, "");
  return slug.slice(0, 200) || "standard-agents-project";
}

export function bundleToProjectFiles(bundle: Bundle, options: { name?: string } = {}): ProjectFiles {
  const files: ProjectFiles = {
    "package.json": `${JSON.stringify(packageJson(options.name ?? "standard-agents-project"), null, 2)}\n`,
    "tsconfig.json": TSCONFIG_JSON,
    ...SPEC_MODULE_FILES,
    [PROJECT_INDEX_FILE]: projectIndexSource(bundle),
  };
  for (const { kind, collection, folder } of DEFINITION_KINDS) {
    for (const definition of bundle[collection]) {
      files[definitionPath(folder, definition.name)] = definitionFileSource(kind, definition);
    }
  }
  return files;
}

function packageJson(name: string) {
  return {
    name: packageNameFor(name),
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: { typecheck: "tsc --noEmit" },
    // The spec's API ships in the project (no registry has @standardagents/spec); the rest is on npm.
    dependencies: { [SPEC_PACKAGE]: `file:./${SPEC_MODULE_FOLDER}`, zod: EXPORT_DEPENDENCY_VERSIONS.zod },
    devDependencies: { typescript: EXPORT_DEPENDENCY_VERSIONS.typescript },
  };
}

/** Written out by hand so it is already in the formatter's layout (short arrays on one line). */
const TSCONFIG_JSON = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "strict": true,
    "skipLibCheck": true,
    "noEmit": true
  },
  "include": ["agents", "standardagents"]
}
`;

function projectIndexSource(bundle: Bundle): string {
  const identifiers = assignDefinitionIdentifiers(bundle);
  const imports: string[] = [];
  const lists: Code = { kind: "object", expanded: true, entries: [] };
  for (const { collection, folder } of DEFINITION_KINDS) {
    const names = identifiers[collection];
    bundle[collection].forEach((definition, index) => {
      imports.push(`import ${names[index]} from "./${folder}/${definition.name}";`);
    });
    lists.entries.push({ key: collection, value: { kind: "array", items: names.map(literal) } });
  }
  // Sorted by path, as the formatter orders imports; the lists below keep the bundle's order.
  imports.sort((left, right) => importSource(left).localeCompare(importSource(right), "en"));
  const header =
    "// Every definition of this project, in order. Tandem reads it to keep the order on import.";
  const head = "export default ";
  return [header, ...imports, "", `${head}${printCode(lists, head.length, 0, 1)};`, ""].join("\n");
}

function importSource(line: string): string {
  return line.slice(line.indexOf('"'));
}

const DEFINITION_FILE = /^agents\/([^/]+)\/([^/]+)\.ts$/;

/** Zips of a folder put everything under one top directory; the project root is then that directory. */
export function withoutCommonRoot(files: ProjectFiles): ProjectFiles {
  const paths = Object.keys(files);
  if (paths.length === 0 || paths.some((path) => path.startsWith("agents/") || !path.includes("/")))
    return files;
  const root = paths[0]!.slice(0, paths[0]!.indexOf("/") + 1);
  if (!paths.every((path) => path.startsWith(root))) return files;
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [path.slice(root.length), text]));
}

interface DefinitionFile {
  path: string;
  kind: DefinitionKind;
  name: string;
}

export function projectFilesToBundle(input: ProjectFiles): ReadBundleResult {
  const files = withoutCommonRoot(input);
  const general = new SourceReport();
  const definitionFiles: DefinitionFile[] = [];
  for (const path of Object.keys(files).sort()) {
    const match = DEFINITION_FILE.exec(path);
    if (match === null) continue;
    const entry = DEFINITION_KINDS.find((candidate) => candidate.folder === match[1]);
    if (entry === undefined) {
      general.warning(
        "unexpected_file",
        [],
        `${path} was ignored: definitions live in agents/agents, agents/prompts, agents/models and agents/tools.`,
      );
      continue;
    }
    definitionFiles.push({ path, kind: entry.kind, name: match[2]! });
  }
  const ordered = orderByIndex(files, definitionFiles, general);
  const raw = emptyRawBundle();
  const reports = new Map<string, SourceReport>();
  const diagnostics: SourceDiagnostic[] = [...general.diagnostics];
  for (const file of ordered) {
    const collection = DEFINITION_KINDS.find((entry) => entry.kind === file.kind)!.collection;
    const path: PathSegment[] = [collection, raw[collection].length];
    const report = new SourceReport(file.path);
    reports.set(`${collection}[${path[1]}]`, report);
    const definition = readDefinitionFile(files[file.path]!, file, path, report);
    diagnostics.push(...report.diagnostics);
    if (definition !== undefined) raw[collection].push(definition);
  }
  return checkRawBundle(raw, diagnostics, (diagnostic) => {
    const owner = /^(agents|prompts|models|tools)\[\d+\]/.exec(diagnostic.path)?.[0];
    return (reports.get(owner ?? "") ?? general).place(diagnostic);
  });
}

/** Files listed by agents/index.ts first, in its order, then any others in path order. */
function orderByIndex(files: ProjectFiles, definitionFiles: DefinitionFile[], general: SourceReport) {
  const source = files[PROJECT_INDEX_FILE];
  if (source === undefined) return definitionFiles;
  const report = new SourceReport(PROJECT_INDEX_FILE);
  const listed = readIndexOrder(source, report);
  const byPath = new Map(definitionFiles.map((file) => [file.path, file]));
  const ordered: DefinitionFile[] = [];
  for (const { path, position } of listed) {
    const file = byPath.get(path);
    if (file === undefined) {
      report.error(
        "unknown_identifier",
        [],
        `${PROJECT_INDEX_FILE} lists ${path}, which is not in the project.`,
        position,
      );
      continue;
    }
    byPath.delete(path);
    ordered.push(file);
  }
  general.diagnostics.push(...report.diagnostics);
  return [...ordered, ...byPath.values()];
}

function readIndexOrder(source: string, report: SourceReport) {
  const module = parseOrReport(source, report);
  if (module === undefined) return [];
  const bindings = readImports(module, report);
  const exported = module.statements.find((statement) => statement.kind === "export-default");
  const listed: Array<{ path: string; position: Expression["position"] }> = [];
  if (exported?.value.kind !== "object") return listed;
  for (const property of exported.value.properties) {
    if (property.value.kind !== "array") continue;
    for (const element of property.value.elements) {
      const source = element.kind === "identifier" ? bindings.defaultImports.get(element.name) : undefined;
      if (source === undefined) {
        report.error("unknown_identifier", [], "Expected the name of a default import.", element.position);
        continue;
      }
      listed.push({ path: `agents/${source.slice(2)}.ts`, position: element.position });
    }
  }
  return listed;
}

/** Reads `export default defineX({...})` (directly, or through a `const`) from one definition file. */
function readDefinitionFile(
  source: string,
  file: DefinitionFile,
  path: PathSegment[],
  report: SourceReport,
): Record<string, unknown> | undefined {
  const module = parseOrReport(source, report);
  if (module === undefined) return undefined;
  const bindings = readImports(module, report);
  const expression = defaultExportValue(
    module,
    report,
    "A definition file has exactly one default export: the define* call.",
  );
  if (expression === undefined) return undefined;
  const kind = definitionCallKind(expression, bindings);
  const define = DEFINITION_KINDS.find((entry) => entry.kind === file.kind)!.define;
  if (kind !== file.kind) {
    report.error(
      "wrong_definition_kind",
      path,
      `${file.path} must export a ${define}({...}) call as its default export.`,
      expression.position,
    );
    return undefined;
  }
  const definition = readDefinitionCall(expression, kind, path, report, bindings);
  if (definition === UNREADABLE) return undefined;
  if (definition.name === undefined) {
    // The spec names definitions after their file when the name is left out.
    setProperty(definition, "name", file.name);
  } else if (definition.name !== file.name) {
    report.error(
      "file_name_mismatch",
      [...path, "name"],
      `${file.path} defines "${String(definition.name)}". Rename the file to ${String(definition.name)}.ts or the definition to "${file.name}".`,
      report.positionOf(`${path[0]}[${path[1]}].name`),
    );
    return undefined;
  }
  return definition;
}
