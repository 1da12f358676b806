// Eval suites as project files (evals/<suite>.ts): written as data, read back by parsing (never run),
// and every bad file named with its line and column.
import { describe, expect, it } from "vitest";
import type { Bundle } from "@/lib/standard";
import { type EvalSuiteData, evalSuitesToProjectFiles, projectFilesToEvalSuites } from "./eval-files";
import { unzipProjectFiles, zipProjectFiles } from "./zip";

const bundle = {
  agents: [{ name: "support" }],
  prompts: [],
  models: [{ name: "customer" }, { name: "judge" }],
  tools: [],
} as unknown as Bundle;

const refunds: EvalSuiteData = {
  name: "refunds",
  agent_id: "support",
  assertions: [
    { type: "max_turns", value: 3 },
    { type: "not_contains", value: "(script exhausted)", target: "transcript" },
  ],
  cases: [
    {
      name: "angry refund",
      input: { messages: ["I want my money back", "order A-1234"] },
      env: { SHOP_NAME: "Acme" },
      assertions: [
        { type: "contains", value: "A-1234" },
        { type: "tool_called", name: "lookup_order", args: { orderId: "A-1234" }, min: 1, max: 1 },
        { type: "regex", value: "^Thanks?\\b", target: "final_reply" },
        {
          type: "judge",
          model: "judge",
          rubric: "Polite?\nAnd `right`: $" + "{not a template}",
          threshold: 0.8,
        },
        { type: "json_schema", schema: { type: "object", required: ["a"] } },
        { type: "code", module: "mentions_order" },
      ],
    },
    {
      name: "simulated",
      input: { simulated_user: { prompt: "You are angry…", model: "customer", max_turns: 4, stop: "STOP" } },
      assertions: [],
    },
  ],
};
const smoke: EvalSuiteData = { name: "smoke / tests", agent_id: "support", assertions: [], cases: [] };

describe("eval suites as project files", () => {
  it("writes evals/<suite>.ts with safe, distinct file names and reads the suites back equal", async () => {
    const written = evalSuitesToProjectFiles([refunds, smoke, { ...smoke, name: "smoke - tests" }]);
    expect(Object.keys(written)).toEqual([
      "evals/refunds.ts",
      "evals/smoke-tests.ts",
      "evals/smoke-tests-2.ts",
    ]);
    expect(written["evals/refunds.ts"]).toMatch(/^\/\/ .*\n.*\nexport default \{\n {2}name: "refunds",/);
    const files = await unzipProjectFiles(zipProjectFiles(written));
    const read = projectFilesToEvalSuites(files, bundle);
    expect(read.diagnostics).toEqual([]);
    expect(read.ok).toBe(true);
    expect(read.suites.map((entry) => entry.file)).toEqual([
      "evals/refunds.ts",
      "evals/smoke-tests-2.ts",
      "evals/smoke-tests.ts",
    ]);
    const byName = new Map(read.suites.map((entry) => [entry.suite.name, entry.suite]));
    expect(byName.get("refunds")).toEqual(refunds);
    expect(byName.get("smoke / tests")).toEqual(smoke);
  });

  it("does not carry case ids", () => {
    const files = {
      "evals/x.ts": `export default { name: "x", agent_id: "support", cases: [{ id: "c1", name: "a", input: { messages: ["hi"] } }] };`,
    };
    const read = projectFilesToEvalSuites(files, bundle);
    expect(read.ok).toBe(true);
    expect(read.suites[0]!.suite.cases[0]).toEqual({
      name: "a",
      input: { messages: ["hi"] },
      assertions: [],
    });
  });

  it("names the file, line and column of a suite the contract refuses", () => {
    const source = [
      "export default {",
      '  name: "bad",',
      '  agent_id: "support",',
      "  cases: [",
      '    { name: "one", input: { messages: ["hi"] }, assertions: [{ type: "nope", value: "x" }] },',
      "  ],",
      "};",
    ].join("\n");
    const read = projectFilesToEvalSuites({ "evals/bad.ts": source }, bundle);
    expect(read.ok).toBe(false);
    expect(read.suites).toEqual([]);
    expect(read.diagnostics).toHaveLength(1);
    expect(read.diagnostics[0]).toMatchObject({
      severity: "error",
      code: "invalid_suite",
      file: "evals/bad.ts",
      path: "cases[0].assertions[0].type",
      line: 5,
    });
    expect(read.diagnostics[0]!.message).toMatch(
      /^cases\[0\]\.assertions\[0\]\.type: type must be one of contains/,
    );
  });

  it("refuses code: calls, names, imports and syntax errors, each at its line", () => {
    const cases: Array<[string, string, string, number]> = [
      ["a call", 'export default {\n  name: run("x"),\n  agent_id: "a" };', "unsupported_syntax", 2],
      ["a name", "const n = 1;\nexport default { name: process };", "unknown_identifier", 2],
      ["an import", 'import fs from "node:fs";\nexport default {};', "unsupported_import", 1],
      ["a syntax error", "export default {\n  name: ,\n};", "syntax_error", 2],
      ["no default export", 'export const suite = { name: "x" };', "unsupported_syntax", 1],
    ];
    for (const [what, source, code, line] of cases) {
      const read = projectFilesToEvalSuites({ "evals/x.ts": source }, bundle);
      expect(read.ok, what).toBe(false);
      expect(read.diagnostics[0], what).toMatchObject({ code, line, file: "evals/x.ts" });
    }
  });

  it("checks the agent and the models against the project's definitions", () => {
    const source = [
      "export default {",
      '  name: "refs",',
      '  agent_id: "ghost",',
      '  assertions: [{ type: "judge", model: "nobody", rubric: "r" }],',
      "  cases: [",
      '    { name: "s", input: { simulated_user: { prompt: "p", model: "missing" } } },',
      "  ],",
      "};",
    ].join("\n");
    const read = projectFilesToEvalSuites({ "evals/refs.ts": source }, bundle);
    expect(read.ok).toBe(false);
    expect(read.diagnostics.map((diagnostic) => [diagnostic.path, diagnostic.line])).toEqual([
      ["agent_id", 3],
      ["assertions[0].model", 4],
      ["cases[0].input.simulated_user.model", 6],
    ]);
    expect(read.diagnostics[0]!.message).toBe(
      'agent_id: the project has no agent "ghost" (its agents: support).',
    );
    // Without definitions to check against, the same file reads.
    expect(projectFilesToEvalSuites({ "evals/refs.ts": source }).ok).toBe(true);
  });

  it("refuses two files of one suite name, and ignores files outside evals/", () => {
    const suite = 'export default { name: "same", agent_id: "support" };';
    const read = projectFilesToEvalSuites(
      { "evals/a.ts": suite, "evals/b.ts": suite, "other/c.ts": "not read", "evals/deep/d.ts": suite },
      bundle,
    );
    expect(read.ok).toBe(false);
    expect(
      read.diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.code, diagnostic.severity]),
    ).toEqual([
      ["evals/b.ts", "duplicate_suite", "error"],
      ["evals/deep/d.ts", "unexpected_file", "warning"],
    ]);
  });
});
