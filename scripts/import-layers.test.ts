// The import layers of docs/runtime.md are enforced by biome.json (`noRestrictedImports` per folder):
// this runs the real Biome binary with the repository's biome.json over probe files in a temporary
// folder and checks that each upward import fails `npm run lint` while a downward one passes.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "..");
const biome = path.join(repo, "node_modules", ".bin", "biome");

/** Probe files: where each sits and what it imports. */
const UPWARD: Record<string, string> = {
  "runtime/store/probe-engine.ts": "../engine/step-runner",
  "runtime/store/probe-services.ts": "@/runtime/services/thread-service",
  "runtime/engine/probe-scheduler.ts": "../scheduler/scheduler",
  "runtime/subagents/probe-engine.ts": "../engine/tool-executor",
  "runtime/tools/probe-engine.ts": "../engine/tool-catalog",
  "runtime/tools/probe-subagents.ts": "@/runtime/subagents/report-to-parent",
  "runtime/events/probe-facade.ts": "../runtime",
  "runtime/effects/probe-scheduler.ts": "../scheduler/scheduler",
  "runtime/effects/probe-services.ts": "@/runtime/services/thread-service",
  "runtime/scheduler/probe-effects.ts": "@/runtime/effects/effect-runner",
  "runtime/engine/probe-effects.ts": "../effects/effect-runner",
  "runtime/sandbox/probe-store.ts": "../store/thread-store",
  "runtime/extensions/probe-sandbox.ts": "@/runtime/sandbox/run-code",
  "app/api/probe/route.ts": "@/runtime/store/file-store",
  "components/probe.tsx": "@/runtime/runtime",
  "lib/standard/probe-graph.ts": "@/lib/graph",
  "lib/contracts/probe-live.ts": "@/lib/live/events",
  "lib/live/probe-test.ts": "@/test/support/live-support",
  "bench/probe-test-internals.ts": "../test/api/helpers",
  "test/api/probe-bench.ts": "../../bench/harness",
};
const DOWNWARD: Record<string, string> = {
  "runtime/engine/probe-store.ts": "../store/thread-store",
  "runtime/services/probe-engine.ts": "../engine/step-runner",
  "runtime/engine/probe-tools.ts": "../tools/http-tool",
  "runtime/subagents/probe-tools.ts": "../tools/tool-execution",
  "runtime/effects/probe-engine.ts": "../engine/thread-state",
  "runtime/engine/probe-sandbox.ts": "../sandbox/run-code",
  "runtime/sandbox/probe-extensions.ts": "../extensions/define",
  "app/api/probe-ok/route.ts": "@/runtime/runtime",
  "components/probe-ok.tsx": "@/lib/contracts/activity",
  "lib/graph/probe-standard.ts": "@/lib/standard",
  "bench/probe-support.ts": "../test/support/server",
};

let folder = "";
let output = "";
let exitCode = 0;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "tandem-layers-"));
  const config = JSON.parse(await readFile(path.join(repo, "biome.json"), "utf8"));
  // The probe folder is no git repository and has no node_modules: lint every file in it.
  delete config.$schema;
  delete config.vcs;
  config.files = { includes: ["**"] };
  await writeFile(path.join(folder, "biome.json"), JSON.stringify(config));
  for (const [file, specifier] of Object.entries({ ...UPWARD, ...DOWNWARD })) {
    await mkdir(path.join(folder, path.dirname(file)), { recursive: true });
    await writeFile(path.join(folder, file), `import { x } from "${specifier}";\n\nexport const y = x;\n`);
  }
  try {
    const result = await run(biome, ["lint", "--max-diagnostics=none", "."], { cwd: folder });
    output = result.stdout + result.stderr;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    exitCode = failed.code ?? 1;
    output = `${failed.stdout ?? ""}${failed.stderr ?? ""}`;
  }
}, 30_000);

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The file names Biome reported a restricted import in. */
function flagged(): Set<string> {
  const names = new Set<string>();
  for (const match of output.matchAll(/^(\S+):\d+:\d+ lint\/style\/noRestrictedImports/gm)) {
    names.add(match[1]!.replaceAll("\\", "/"));
  }
  return names;
}

describe("import layers (biome.json noRestrictedImports)", () => {
  it("fails the lint with a non-zero exit code", () => {
    expect(exitCode, output).not.toBe(0);
    expect(output).toContain("lint/style/noRestrictedImports");
    expect(output).toContain("layers: runtime/store/ may import only the layers below it");
  });

  it.each(Object.keys(UPWARD))("refuses the upward import in %s", (file) => {
    expect(flagged(), output).toContain(file);
  });

  it.each(Object.keys(DOWNWARD))("allows the downward import in %s", (file) => {
    expect(flagged(), output).not.toContain(file);
  });
});
