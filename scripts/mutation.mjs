#!/usr/bin/env node
// `npm run test:mutation`: StrykerJS mutation testing of the modules whose behaviour the spec and the
// guards pin (docs/testing.md), one module at a time with its own unit tests, one mutant at a time on
// the 2-core CI machines. Prints each module's score; surviving mutants are listed by Stryker and kept
// in reports/mutation/<module>.json and .html. Not part of `npm test`.
// `npm run test:mutation -- stop-rules http-address-policy` runs only the named modules.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** lib/standard is split in four so that each part finishes in under half an hour on 2 shared cores. */
export const MODULES = {
  "lib-standard-parse": {
    mutate: [
      "lib/standard/parse-bundle.ts",
      "lib/standard/unknown-properties.ts",
      "lib/standard/prototype-keys.ts",
      "lib/standard/diagnostics.ts",
      "lib/standard/zod-issues.ts",
    ],
    tests: ["lib/standard/**/*.test.ts"],
  },
  "lib-standard-validate": {
    mutate: [
      "lib/standard/validate-*.ts",
      "lib/standard/validation-context.ts",
      "lib/standard/graph-cycles.ts",
      "lib/standard/bundle-index.ts",
      "!lib/standard/**/*.test.ts",
    ],
    tests: ["lib/standard/**/*.test.ts"],
  },
  "lib-standard-schemas": {
    mutate: [
      "lib/standard/agent.ts",
      "lib/standard/bundle.ts",
      "lib/standard/identifiers.ts",
      "lib/standard/index.ts",
      "lib/standard/json-schema.ts",
      "lib/standard/model.ts",
      "lib/standard/prompt.ts",
      "lib/standard/secrets.ts",
      "lib/standard/tool-entry.ts",
      "lib/standard/tool.ts",
    ],
    tests: ["lib/standard/**/*.test.ts"],
  },
  "lib-standard-resolve": {
    mutate: [
      "lib/standard/resolve.ts",
      "lib/standard/defaults.ts",
      // Only cloneExample: the example bundles are data. examples.test.ts checks that they validate with
      // zero diagnostics (a broken reference fails it) and pins the spec's asset_subagent as written;
      // their prose (titles, descriptions, scripted texts) is no behaviour a test could pin.
      "lib/standard/examples.ts:205-207",
      "lib/standard/thread-endpoint-routes.ts",
    ],
    tests: ["lib/standard/**/*.test.ts"],
  },
  "stop-rules": {
    mutate: ["runtime/engine/stop-rules.ts"],
    tests: ["runtime/engine/stop-rules.test.ts"],
  },
  "http-address-policy": {
    mutate: ["runtime/tools/http-address-policy.ts"],
    tests: ["runtime/tools/http-address-policy.test.ts", "runtime/tools/http-tool.test.ts"],
  },
  "lib-live": {
    mutate: ["lib/live/**/*.ts", "!lib/live/**/*.test.ts"],
    tests: ["lib/live/**/*.test.ts"],
  },
};

const root = path.resolve(import.meta.dirname, "..");
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in MODULES));
if (unknown.length > 0) {
  console.error(`Unknown module(s): ${unknown.join(", ")}. Modules: ${Object.keys(MODULES).join(", ")}`);
  process.exit(2);
}
const names = requested.length > 0 ? requested : Object.keys(MODULES);
const strykerBin = path.join(root, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");

const scores = [];
for (const name of names) {
  const module = MODULES[name];
  console.log(`\n━━ mutation: ${name} ━━`);
  const outcome = spawnSync(process.execPath, [strykerBin, "run", "stryker.config.mjs"], {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      MUTATION_NAME: name,
      MUTATE: module.mutate.join(","),
      MUTATION_TESTS: module.tests.join(","),
    },
  });
  scores.push({ name, ok: outcome.status === 0, ...readScore(name) });
}

/** Killed (and timed out) over all valid mutants, from Stryker's JSON report. */
function readScore(name) {
  try {
    const report = JSON.parse(
      fs.readFileSync(path.join(root, "reports", "mutation", `${name}.json`), "utf8"),
    );
    const counts = {};
    for (const file of Object.values(report.files))
      for (const mutant of file.mutants) counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
    const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
    const valid = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
    return { counts, score: valid === 0 ? 100 : (100 * detected) / valid };
  } catch {
    return { counts: {}, score: Number.NaN };
  }
}

console.log("\n━━ mutation scores ━━");
for (const { name, ok, counts, score } of scores) {
  console.log(
    `${ok ? "ok  " : "FAIL"} ${name.padEnd(22)} ${score.toFixed(1).padStart(5)} %  killed ${counts.Killed ?? 0}, timeout ${counts.Timeout ?? 0}, survived ${counts.Survived ?? 0}, no coverage ${counts.NoCoverage ?? 0}`,
  );
}
process.exit(scores.every((score) => score.ok) ? 0 : 1);
