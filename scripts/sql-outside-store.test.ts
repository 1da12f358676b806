// Guards the data layer (issue 44: runtime/store/ is the only code that talks to the database): no
// SQL text and no call of the SQL client's query in the folders whose SQL has moved into named store
// operations — the routes and pages (app/), the facade and the process entry, services, live events,
// scheduled effects, the engine, subagents and the scheduler. A new statement there fails this test;
// write it as a function in runtime/store/ and call that.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const GUARDED = [
  "app",
  "runtime/runtime.ts",
  "runtime/process-lifecycle.ts",
  "runtime/services",
  "runtime/events",
  "runtime/effects",
  "runtime/engine",
  "runtime/scheduler",
  "runtime/subagents",
];

async function sourceFiles(entry: string): Promise<string[]> {
  const info = await stat(path.join(repo, entry));
  if (!info.isDirectory()) return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [entry] : [];
  const files: string[] = [];
  for (const child of await readdir(path.join(repo, entry)))
    files.push(...(await sourceFiles(`${entry}/${child}`)));
  return files;
}

/** The source without its comments (line comments and the lines of block comments). */
function withoutComments(source: string): string {
  return source
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .map((line) => line.replace(/\s\/\/\s.*$/, ""))
    .join("\n");
}

const SQL_PATTERNS: [string, RegExp][] = [
  ["a query call", /\.(query|defer)\s*(<[^>()]*>)?\s*\(/],
  ["SELECT … FROM", /\bSELECT\b[\s\S]{0,400}?\bFROM\b/],
  ["SELECT of a value", /["'`]\s*SELECT\s+(\d|\$|pg_|now\b)/],
  ["INSERT INTO", /\bINSERT\s+INTO\b/],
  ["UPDATE … SET", /\bUPDATE\s+"?\w+"?\s+SET\b/],
  ["DELETE FROM", /\bDELETE\s+FROM\b/],
  ["WITH RECURSIVE", /\bWITH\s+RECURSIVE\b/],
];

/** What in `source` talks to the database (by the patterns above), outside comments. */
function sqlIn(source: string): string[] {
  const code = withoutComments(source);
  return SQL_PATTERNS.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}

describe("SQL outside runtime/store", () => {
  it("finds what it guards against (the probes)", () => {
    expect(sqlIn('await this.db.query("SELECT 1 FROM projects WHERE id = $1", [id]);')).toEqual([
      "a query call",
      "SELECT … FROM",
      "SELECT of a value",
    ]);
    expect(sqlIn("await sql.query<{ id: string }>(text, []);")).toEqual(["a query call"]);
    expect(sqlIn("await tx.defer(statement.text, statement.params);")).toEqual(["a query call"]);
    expect(sqlIn('const ping = "SELECT 1";')).toEqual(["SELECT of a value"]);
    expect(sqlIn("`INSERT INTO thread_replays (thread_id) VALUES ($1)`")).toEqual(["INSERT INTO"]);
    expect(sqlIn("`UPDATE threads SET runnable = true WHERE id = $1`")).toEqual(["UPDATE … SET"]);
    expect(sqlIn('"DELETE FROM event_watchers WHERE watcher = $1"')).toEqual(["DELETE FROM"]);
    expect(sqlIn("`WITH RECURSIVE subtree AS (…)`")).toContain("WITH RECURSIVE");
    // Not SQL: comments, prose, store calls.
    expect(sqlIn("// claimed with a lease (`FOR UPDATE SKIP LOCKED`), SELECT 1 FROM x")).toEqual([]);
    expect(sqlIn("/**\n * Runs `SELECT 1` FROM the store\n */")).toEqual([]);
    expect(sqlIn('const label = "Select a thread from the list";')).toEqual([]);
    expect(sqlIn("await pingDatabase(database.sql);")).toEqual([]);
  });

  it("has none in the guarded folders", async () => {
    const found: string[] = [];
    for (const entry of GUARDED) {
      for (const file of await sourceFiles(entry)) {
        const kinds = sqlIn(await readFile(path.join(repo, file), "utf8"));
        if (kinds.length > 0) found.push(`${file}: ${kinds.join(", ")}`);
      }
    }
    expect(found).toEqual([]);
  });
});
