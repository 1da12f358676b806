// Edges written once: every route under app/api that reads a request body parses it with a schema
// imported from lib/contracts (the schema the browser's client types its bodies with), and no route
// declares an object schema of its own. A static check over the route files' source.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../test/support/server";

/** Routes that read a body not described by one contract schema, and why. */
const BODIES_WITHOUT_CONTRACT: Record<string, string> = {
  "app/api/projects/[id]/definitions/route.ts":
    "a Standard Agents bundle, checked by lib/standard with diagnostics that point at the field",
  "app/api/projects/[id]/import/route.ts": "TypeScript, a zip or a JSON bundle, checked by lib/codegen",
  "app/api/projects/[id]/evals/route.ts":
    "passed to the runtime, which parses it with SuiteSchema (lib/contracts/evals.ts) once the project is found (404 before 400)",
  "app/api/projects/[id]/evals/[suiteId]/route.ts":
    "passed to the runtime, which parses it with SuiteSchema (lib/contracts/evals.ts) once the suite is found (404 before 400)",
  "app/api/threads/[id]/fs/[...path]/route.ts": "raw file bytes",
  "app/api/threads/[id]/endpoints/[[...path]]/route.ts": "raw bytes for a thread's own endpoint handler",
};

const READS_BODY = /\b(readJson|readBodyText|readBodyBytes|parseJsonBody)\(/;
const INLINE_OBJECT_SCHEMA = /\bz\s*\.\s*(object|strictObject|looseObject)\s*\(/;

interface RouteSource {
  file: string;
  source: string;
}

function apiRoutes(directory = path.join(ROOT, "app/api")): RouteSource[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return apiRoutes(full);
    if (entry.name !== "route.ts") return [];
    return [
      { file: path.relative(ROOT, full).split(path.sep).join("/"), source: fs.readFileSync(full, "utf8") },
    ];
  });
}

/** The names a source imports from `@/lib/contracts/…`. */
function contractImports(source: string): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(
    /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"@\/lib\/contracts\/[^"]+"/g,
  )) {
    for (const item of (match[1] ?? "").split(",")) {
      const name = item
        .replace(/^\s*type\s+/, "")
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** The schemas a route parses its body or query with: `readJson(request, X)`, `X.parse(…)`. */
function parsedSchemas(source: string): string[] {
  const local = new Map<string, string>();
  for (const match of source.matchAll(/const (\w+) = withServerAttachments\((\w+)\)/g))
    local.set(match[1] ?? "", match[2] ?? "");
  const parsed = [
    ...[...source.matchAll(/readJson\(\s*\w+,\s*(\w+)\s*\)/g)].map((match) => match[1] ?? ""),
    ...[...source.matchAll(/\b(\w+)\.(?:parse|safeParse)\(/g)].map((match) => match[1] ?? ""),
  ];
  return parsed.map((name) => local.get(name) ?? name);
}

describe("route contracts", () => {
  it("finds the routes that read a body", () => {
    const withBody = apiRoutes().filter((route) => READS_BODY.test(route.source));
    expect(withBody.length).toBeGreaterThanOrEqual(20);
  });

  it("parses every body with a schema imported from lib/contracts", () => {
    const problems: string[] = [];
    for (const route of apiRoutes()) {
      if (!READS_BODY.test(route.source) || route.file in BODIES_WITHOUT_CONTRACT) continue;
      const contracts = contractImports(route.source);
      const parsed = parsedSchemas(route.source);
      if (!parsed.some((name) => contracts.has(name)))
        problems.push(`${route.file} parses with ${parsed.join(", ") || "nothing"}, none from lib/contracts`);
    }
    expect(problems).toEqual([]);
  });

  it("declares no object schema inside a route", () => {
    const inline = apiRoutes()
      .filter((route) => INLINE_OBJECT_SCHEMA.test(route.source))
      .map((route) => route.file);
    expect(inline).toEqual([]);
  });

  it("lists only routes that still read a body without a contract", () => {
    const routes = new Map(apiRoutes().map((route) => [route.file, route.source]));
    for (const file of Object.keys(BODIES_WITHOUT_CONTRACT)) {
      const source = routes.get(file);
      expect(source, file).toBeDefined();
      expect(READS_BODY.test(source ?? ""), file).toBe(true);
      const contracts = contractImports(source ?? "");
      expect(
        parsedSchemas(source ?? "").filter((name) => contracts.has(name)),
        file,
      ).toEqual([]);
    }
  });

  it("reads imports and parse sites the way routes write them", () => {
    const source = [
      'import { type A, B as C } from "@/lib/contracts/thing";',
      'import { D } from "@/lib/graph";',
      "const Body = withServerAttachments(C);",
      "const body = await readJson(request, Body);",
      "const query = D.parse(x);",
    ].join("\n");
    expect([...contractImports(source)]).toEqual(["A", "C"]);
    expect(parsedSchemas(source)).toEqual(["C", "D"]);
  });
});
