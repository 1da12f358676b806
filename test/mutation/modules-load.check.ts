// Part of every mutation run (vitest.mutation.config.ts), never of `npm test`: each mutated module
// must load. A mutant that breaks a module's top-level code (a range table, a schema) makes the test
// files importing it fail to load, which Stryker's Vitest runner counts as no failed test, so such a
// mutant would be reported as surviving; this test imports every mutated module and fails instead.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A glob as a regular expression: `**\/` any folders, `*` any name part. */
function globPattern(glob: string): RegExp {
  const source = glob
    .split("**/")
    .map((part) =>
      part
        .split("*")
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join("(?:.*/)?");
  return new RegExp(`^${source}$`);
}

/** The files MUTATE names (globs; `!` globs leave files out), never tests. */
function mutatedFiles(globs: readonly string[]): string[] {
  const include = globs.filter((glob) => !glob.startsWith("!")).map(globPattern);
  const exclude = globs.filter((glob) => glob.startsWith("!")).map((glob) => globPattern(glob.slice(1)));
  const roots = new Set(globs.filter((glob) => !glob.startsWith("!")).map((glob) => glob.split("/")[0]!));
  const files: string[] = [];
  for (const root of roots) {
    for (const entry of fs.readdirSync(path.join(ROOT, root), { recursive: true, encoding: "utf8" })) {
      const file = path.posix.join(root, entry.split(path.sep).join("/"));
      if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
      if (include.some((pattern) => pattern.test(file)) && !exclude.some((pattern) => pattern.test(file)))
        files.push(file);
    }
  }
  return files.sort();
}

/** MUTATE entries may end in a line range (`file.ts:205-207`, Stryker's syntax); the whole file loads. */
const withoutRange = (glob: string) => glob.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, "");

const files = mutatedFiles((process.env.MUTATE ?? "").split(",").filter(Boolean).map(withoutRange));

it("every mutated module loads", async () => {
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) await expect(import(path.join(ROOT, file)), file).resolves.toBeDefined();
});
