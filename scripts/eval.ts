// `npm run eval -- --project <name|id> --suite <name> [--version N] [--repetitions K] [--concurrency C]
// [--junit FILE] [--base URL]`: runs an eval suite on a Tandem server over its HTTP API (API.md
// "Evaluations"; docs/evals.md "In CI"), prints a table of its cases, writes JUnit XML on request and
// exits 1 when a case failed (2 when the run could not be started or did not finish). Sends
// TANDEM_API_TOKEN as a bearer token when it is set. The base URL defaults to TANDEM_URL, then
// http://127.0.0.1:3000.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { EvalCaseResult, EvalRun } from "../lib/contracts/evals";

const USAGE =
  "Usage: npm run eval -- --project <name|id> --suite <name> [--version N] [--repetitions K] [--concurrency C] [--junit FILE] [--base URL] [--timeout SECONDS]";

class CliError extends Error {}

interface Options {
  project: string;
  suite: string;
  version?: number;
  repetitions?: number;
  concurrency?: number;
  junit?: string;
  base: string;
  timeoutMs: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      project: { type: "string" },
      suite: { type: "string" },
      version: { type: "string" },
      repetitions: { type: "string" },
      concurrency: { type: "string" },
      junit: { type: "string" },
      base: { type: "string" },
      timeout: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.project || !values.suite) throw new CliError(`--project and --suite are required.\n${USAGE}`);
  const integer = (name: string, raw: string | undefined) => {
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new CliError(`--${name} must be a positive integer (got ${raw}).`);
    return value;
  };
  return {
    project: values.project,
    suite: values.suite,
    version: integer("version", values.version),
    repetitions: integer("repetitions", values.repetitions),
    concurrency: integer("concurrency", values.concurrency),
    junit: values.junit,
    base: (values.base ?? process.env.TANDEM_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, ""),
    timeoutMs: (integer("timeout", values.timeout) ?? 1800) * 1000,
  };
}

async function api<T>(options: Options, method: string, path: string, body?: unknown): Promise<T> {
  const token = process.env.TANDEM_API_TOKEN;
  let response: Response;
  try {
    response = await fetch(`${options.base}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new CliError(
      `Cannot reach ${options.base}: ${(error as Error).message}. Is the server running (--base)?`,
    );
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    const message = (parsed as { error?: string } | null)?.error ?? text;
    throw new CliError(`${method} ${path} → ${response.status}: ${message}`);
  }
  return parsed as T;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findProject(options: Options): Promise<{ id: string; name: string }> {
  const { projects } = await api<{ projects: { id: string; name: string }[] }>(
    options,
    "GET",
    "/api/projects",
  );
  const found =
    projects.find((project) => project.id === options.project) ??
    projects.find((project) => project.name === options.project);
  if (found) return found;
  if (UUID.test(options.project)) return { id: options.project, name: options.project };
  throw new CliError(`No project named or with the id "${options.project}".`);
}

function pad(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function table(run: EvalRun): string {
  const rows = [...run.results].sort(
    (left, right) => left.name.localeCompare(right.name) || left.repetition - right.repetition,
  );
  const header = `${pad("case", 32)} ${pad("rep", 3)} ${pad("result", 6)} ${pad("score", 5)} ${pad("turns", 5)} ${pad("tokens", 7)} ${pad("ms", 7)}  why`;
  const lines = rows.map((result) => {
    const why = result.assertions
      .filter((assertion) => !assertion.passed)
      .map((assertion) => `${assertion.type}: ${assertion.reason}`)
      .join("; ");
    return `${pad(result.name, 32)} ${pad(String(result.repetition), 3)} ${pad(result.passed ? "pass" : "FAIL", 6)} ${pad(result.score.toFixed(2), 5)} ${pad(String(result.turns), 5)} ${pad(String(result.tokens), 7)} ${pad(String(result.latency_ms), 7)}  ${why}`;
  });
  const s = run.summary;
  const summary = `${s.passed}/${s.cases} cases passed · pass rate ${(s.pass_rate * 100).toFixed(1)}% · pass^${run.repetitions} ${(s.pass_all_repetitions * 100).toFixed(1)}% · mean score ${s.mean_score.toFixed(2)} · ${s.tokens} tokens · $${s.cost_usd.toFixed(4)} · p50 ${s.latency_p50_ms} ms · p95 ${s.latency_p95_ms} ms`;
  return [header, "-".repeat(header.length), ...lines, "", summary].join("\n");
}

const xml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

function junitXml(run: EvalRun): string {
  const failures = run.results.filter((result) => !result.passed).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const testcase = (result: EvalCaseResult) => {
    const name = run.repetitions > 1 ? `${result.name} #${result.repetition + 1}` : result.name;
    const failed = result.assertions.filter((assertion) => !assertion.passed);
    const body =
      failed.length === 0
        ? ""
        : `\n      <failure message="${xml(failed.map((assertion) => `${assertion.type}: ${assertion.reason}`).join("; "))}" type="assertion">${xml(failed.map((assertion) => `${assertion.type}: ${assertion.reason}`).join("\n"))}</failure>\n    `;
    return `    <testcase classname="${xml(`${run.suite_name}`)}" name="${xml(name)}" time="${seconds(result.latency_ms)}">${body}${result.thread_id ? `<system-out>thread ${result.thread_id}</system-out>` : ""}</testcase>`;
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="tandem evals" tests="${run.results.length}" failures="${failures}">`,
    `  <testsuite name="${xml(run.suite_name)}" tests="${run.results.length}" failures="${failures}" errors="0" skipped="0" timestamp="${new Date(run.created_at / 1000).toISOString()}">`,
    `    <properties><property name="run_id" value="${run.id}"/><property name="version" value="${run.version}"/></properties>`,
    ...run.results.map(testcase),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const project = await findProject(options);
  const { suites } = await api<{ suites: { id: string; name: string }[] }>(
    options,
    "GET",
    `/api/projects/${project.id}/evals`,
  );
  const suite = suites.find(
    (candidate) => candidate.name === options.suite || candidate.id === options.suite,
  );
  if (!suite)
    throw new CliError(
      `Project "${project.name}" has no eval suite "${options.suite}"${suites.length > 0 ? ` (its suites: ${suites.map((item) => item.name).join(", ")})` : ""}.`,
    );
  const { run: started } = await api<{ run: EvalRun }>(
    options,
    "POST",
    `/api/projects/${project.id}/evals/${suite.id}/runs`,
    {
      ...(options.version !== undefined ? { version: options.version } : {}),
      ...(options.repetitions !== undefined ? { repetitions: options.repetitions } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    },
  );
  console.log(
    `Running suite "${suite.name}" of "${project.name}" (run ${started.id}, version ${started.version})…`,
  );
  const deadline = Date.now() + options.timeoutMs;
  let run = started;
  let lastDone = -1;
  while (run.status === "running") {
    if (Date.now() > deadline) {
      await api(options, "POST", `/api/eval-runs/${run.id}/cancel`).catch(() => undefined);
      throw new CliError(`The run did not finish within ${options.timeoutMs / 1000} s; it was cancelled.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    run = (await api<{ run: EvalRun }>(options, "GET", `/api/eval-runs/${run.id}`)).run;
    if (run.progress.done !== lastDone && process.stderr.isTTY) {
      lastDone = run.progress.done;
      process.stderr.write(`\r${run.progress.done}/${run.progress.total} done`);
    }
  }
  if (process.stderr.isTTY) process.stderr.write("\n");
  console.log(table(run));
  if (options.junit) {
    await writeFile(options.junit, junitXml(run));
    console.log(`JUnit XML written to ${options.junit}`);
  }
  if (run.status !== "done") {
    console.error(`The run ended ${run.status}${run.failure ? `: ${run.failure}` : ""}.`);
    return 2;
  }
  return run.results.every((result) => result.passed) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof CliError ? error.message : error);
    process.exit(2);
  },
);
