// A project's eval suites as files of its exported project (`evals/<suite>.ts`, one suite as the
// default export: plain data, no imports), and back. Read by parsing, never by running, like the
// definition files: a file that is not plain data, a suite the contract refuses, or a suite naming an
// agent or a model the project's definitions lack is a diagnostic with its file, line and column.
import { type SuiteBody, SuiteSchema } from "@/lib/contracts/evals";
import { type Bundle, formatPath, type PathSegment } from "@/lib/standard";
import { jsonCode, printCode } from "./code-printer";
import { defaultExportValue, parseOrReport } from "./read-typescript";
import { readJsonValue, UNREADABLE } from "./read-values";
import { type SourceDiagnostic, SourceReport } from "./source-diagnostics";
import type { ProjectFiles } from "./zip";

export const EVALS_FOLDER = "evals";
const EVAL_FILE = /^evals\/([^/]+)\.ts$/;

/** A suite as the export writes it: no ids (a project imported elsewhere gets its own). */
export interface EvalSuiteData {
  name: string;
  agent_id: string;
  assertions: SuiteBody["assertions"];
  cases: Array<Omit<SuiteBody["cases"][number], "id">>;
}

/** A file name from a suite name: letters, digits, `_`, `-` and `.` kept, other runs as one `-`. */
function fileStem(name: string): string {
  const stem = name
    .replaceAll(/[^A-Za-z0-9_.-]+/g, "-")
    .replaceAll(/-{2,}/g, "-")
    .replaceAll(/^[.-]+|[.-]+$/g, "")
    .slice(0, 100);
  return stem || "suite";
}

const FILE_HEADER = [
  "// An eval suite of this project, exported by Tandem (docs/evals.md). Importing the project reads it",
  "// back as data (never runs it), so keep to literals: strings, numbers, booleans, null, objects, arrays.",
];

/** The suite's file: its fields in the contract's order, the cases without ids. */
export function evalSuiteFileSource(suite: EvalSuiteData): string {
  const data = {
    name: suite.name,
    agent_id: suite.agent_id,
    assertions: suite.assertions,
    cases: suite.cases.map(({ name, input, env, assertions }) => ({
      name,
      input,
      ...(env && Object.keys(env).length > 0 ? { env } : {}),
      assertions,
    })),
  };
  const head = "export default ";
  return `${FILE_HEADER.join("\n")}\n${head}${printCode(jsonCode(data), head.length, 0, 1)};\n`;
}

/** `evals/<suite>.ts` for every suite; two suites whose names make the same file name get `-2`, `-3`… */
export function evalSuitesToProjectFiles(suites: readonly EvalSuiteData[]): ProjectFiles {
  const files: ProjectFiles = {};
  const taken = new Set<string>();
  for (const suite of suites) {
    const stem = fileStem(suite.name);
    let path = `${EVALS_FOLDER}/${stem}.ts`;
    for (let n = 2; taken.has(path.toLowerCase()); n += 1) path = `${EVALS_FOLDER}/${stem}-${n}.ts`;
    taken.add(path.toLowerCase());
    files[path] = evalSuiteFileSource(suite);
  }
  return files;
}

export interface ReadEvalSuitesResult {
  ok: boolean;
  /** The suites read, in path order (only when ok). */
  suites: Array<{ file: string; suite: SuiteBody }>;
  diagnostics: SourceDiagnostic[];
}

/**
 * Reads the `evals/*.ts` files of a project (its root already found: the paths start at it). With
 * `bundle`, each suite's agent and the models its simulated users and judges name must be the
 * bundle's, as a suite saved over HTTP must be the latest version's.
 */
export function projectFilesToEvalSuites(files: ProjectFiles, bundle?: Bundle): ReadEvalSuitesResult {
  const suites: ReadEvalSuitesResult["suites"] = [];
  const diagnostics: SourceDiagnostic[] = [];
  const byName = new Map<string, string>();
  for (const path of Object.keys(files).sort()) {
    if (!path.startsWith(`${EVALS_FOLDER}/`) || !path.endsWith(".ts")) continue;
    const report = new SourceReport(path);
    if (!EVAL_FILE.test(path)) {
      report.warning(
        "unexpected_file",
        [],
        `${path} was ignored: eval suites are files directly in ${EVALS_FOLDER}/.`,
      );
      diagnostics.push(...report.diagnostics);
      continue;
    }
    const suite = readSuiteFile(files[path]!, report, bundle);
    if (suite !== undefined) {
      const other = byName.get(suite.name);
      if (other !== undefined)
        report.problem(
          "duplicate_suite",
          "name",
          `name: ${other} already defines the suite "${suite.name}"; a project's suites have distinct names.`,
        );
      else {
        byName.set(suite.name, path);
        suites.push({ file: path, suite });
      }
    }
    diagnostics.push(...report.diagnostics);
  }
  const ok = !diagnostics.some((diagnostic) => diagnostic.severity === "error");
  return { ok, suites: ok ? suites : [], diagnostics };
}

function readSuiteFile(source: string, report: SourceReport, bundle?: Bundle): SuiteBody | undefined {
  const module = parseOrReport(source, report);
  if (module === undefined) return undefined;
  for (const statement of module.statements)
    if (statement.kind === "import")
      report.error(
        "unsupported_import",
        [],
        "An eval suite file imports nothing: it is the suite as data (export default { name, agent_id, cases, assertions }).",
        statement.position,
      );
  if (report.hasErrors()) return undefined;
  const expression = defaultExportValue(
    module,
    report,
    "An eval suite file has exactly one default export: the suite ({ name, agent_id, cases, assertions }).",
  );
  if (expression === undefined) return undefined;
  const value = readJsonValue(expression, [], report);
  if (value === UNREADABLE) return undefined;
  const parsed = SuiteSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = formatPath(issue.path as PathSegment[]);
      report.problem("invalid_suite", path, `${path || "the suite"}: ${issue.message}`);
    }
    return undefined;
  }
  // Ids are not carried: the importing project gives (or keeps) its own.
  const suite: SuiteBody = {
    ...parsed.data,
    cases: parsed.data.cases.map(({ id: _id, ...item }) => item),
  };
  if (bundle) checkReferences(suite, bundle, report);
  return report.hasErrors() ? undefined : suite;
}

/** The agent and the models a suite names must be the project's (as `POST …/evals` checks them). */
function checkReferences(suite: SuiteBody, bundle: Bundle, report: SourceReport): void {
  const agents = bundle.agents.map((agent) => agent.name);
  const models = new Set(bundle.models.map((model) => model.name));
  if (!agents.includes(suite.agent_id))
    report.problem(
      "invalid_suite",
      "agent_id",
      `agent_id: the project has no agent "${suite.agent_id}"${agents.length > 0 ? ` (its agents: ${agents.join(", ")})` : ""}.`,
    );
  const checkJudges = (assertions: SuiteBody["assertions"], where: PathSegment[]) =>
    assertions.forEach((assertion, index) => {
      if (assertion.type === "judge" && !models.has(assertion.model)) {
        const path = formatPath([...where, index, "model"]);
        report.problem("invalid_suite", path, `${path}: the project has no model "${assertion.model}".`);
      }
    });
  checkJudges(suite.assertions, ["assertions"]);
  suite.cases.forEach((item, index) => {
    checkJudges(item.assertions, ["cases", index, "assertions"]);
    if ("simulated_user" in item.input && !models.has(item.input.simulated_user.model)) {
      const path = formatPath(["cases", index, "input", "simulated_user", "model"]);
      report.problem(
        "invalid_suite",
        path,
        `${path}: the project has no model "${item.input.simulated_user.model}".`,
      );
    }
  });
}
