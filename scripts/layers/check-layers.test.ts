// Probes every boundary of the layer check (check-layers.mjs): probe files in a temporary folder laid
// out like the repository import across each pair of layers, as `@/…` and as `../../…` from two
// folders deep. Each import the list forbids is reported and each it allows is not; a hand-written
// table of the boundaries the project relies on (docs/runtime.md) fails the test if the list loosens.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLayers, type LayerCheckProblem } from "./check-layers.mjs";
import { LAYER_ROWS } from "./layer-list.mjs";
import { forbiddenReason, layerNamed, type RankedLayer } from "./layer-rules.mjs";

/** Boundaries that must stay closed: [importing folder or file, imported module]. */
const MUST_REFUSE: [string, string][] = [
  ["runtime/services/", "runtime/events/event-watchers"],
  ["runtime/services/", "runtime/runtime"],
  ["runtime/events/", "runtime/services/thread-service"],
  ["runtime/scheduler/", "runtime/effects/effect-runner"],
  ["runtime/effects/", "runtime/scheduler/scheduler"],
  ["runtime/engine/", "runtime/scheduler/scheduler"],
  ["runtime/engine/", "runtime/services/thread-service"],
  ["runtime/engine/", "runtime/effects/effect-runner"],
  ["runtime/subagents/", "runtime/engine/tool-executor"],
  ["runtime/tools/", "runtime/subagents/report-to-parent"],
  ["runtime/tools/", "runtime/engine/tool-catalog"],
  ["runtime/store/", "runtime/tools/http-tool"],
  ["runtime/store/", "runtime/engine/step-runner"],
  ["runtime/store/", "runtime/services/thread-service"],
  ["runtime/sandbox/", "runtime/store/thread-store"],
  ["runtime/sandbox/", "runtime/models/provider"],
  ["runtime/models/", "runtime/extensions/define"],
  ["runtime/models/", "runtime/sandbox/run-code"],
  ["runtime/extensions/", "runtime/models/provider"],
  ["runtime/extensions/", "runtime/sandbox/run-code"],
  ["runtime/security/", "runtime/models/provider"],
  ["runtime/security/", "runtime/store/thread-store"],
  ["runtime/errors", "runtime/security/api-token"],
  ["runtime/faults", "runtime/store/thread-store"],
  ["runtime/telemetry/", "runtime/engine/step-runner"],
  ["app/", "runtime/store/file-store"],
  ["app/", "runtime/services/thread-service"],
  ["app/", "lib/db/database"],
  ["components/", "runtime/runtime"],
  ["components/", "runtime/errors"],
  ["components/", "lib/db/database"],
  ["components/", "app/page"],
  ["lib/live/", "runtime/runtime"],
  ["lib/studio/", "components/ui/button"],
  ["lib/api/", "app/page"],
  ["lib/api/", "lib/db/config"],
  ["lib/studio/", "lib/db/database"],
  ["lib/routing/", "lib/db/database"],
  ["lib/contracts/", "lib/live/events"],
  ["lib/contracts/", "lib/standard/index"],
  ["lib/contracts/", "lib/text/words"],
  ["lib/standard/", "lib/graph/compile"],
  ["lib/standard/", "lib/versions/diff"],
  ["lib/graph/", "lib/codegen/project-files"],
  ["lib/graph/", "lib/live/events"],
  ["lib/codegen/", "lib/studio/store"],
  ["lib/codegen/", "lib/live/events"],
  ["lib/codegen/", "lib/api/client"],
  ["lib/db/", "runtime/store/thread-store"],
  ["lib/db/", "lib/contracts/messages"],
  ["runtime/store/", "test/support/live-support"],
  ["lib/live/", "bench/harness"],
  ["components/", "test/support/server"],
  ["bench/", "test/api/helpers"],
  ["test/", "bench/harness"],
  ["test/support/", "bench/harness"],
];

/** Boundaries that must stay open. */
const MUST_ALLOW: [string, string][] = [
  ["runtime/services/", "runtime/engine/step-runner"],
  ["runtime/services/", "runtime/store/thread-store"],
  ["runtime/engine/", "runtime/store/thread-store"],
  ["runtime/engine/", "runtime/tools/http-tool"],
  ["runtime/engine/", "runtime/sandbox/run-code"],
  ["runtime/engine/", "lib/db/config"],
  ["runtime/subagents/", "runtime/tools/tool-execution"],
  ["runtime/effects/", "runtime/engine/thread-state"],
  ["runtime/sandbox/", "runtime/extensions/define"],
  ["runtime/store/", "lib/db/sql-client"],
  ["runtime/store/", "lib/contracts/messages"],
  ["runtime/security/", "runtime/errors"],
  ["runtime/runtime", "runtime/services/thread-service"],
  ["app/", "runtime/runtime"],
  ["app/", "runtime/errors"],
  ["app/", "runtime/security/api-token"],
  ["app/", "lib/db/config"],
  ["app/", "components/ui/button"],
  ["components/", "lib/contracts/activity"],
  ["lib/graph/", "lib/standard/index"],
  ["lib/studio/", "lib/codegen/project-files"],
  ["bench/", "test/support/server"],
  ["test/", "runtime/store/thread-store"],
];

/** A file `layerPath` owns, two folders deep when the layer is a folder. */
function probeFile(layerPath: string, name: string): string {
  if (layerPath.startsWith("**/*")) return `test/deep/er/${name}${layerPath.slice(4)}.ts`;
  return layerPath.endsWith("/") ? `${layerPath}deep/er/${name}.ts` : `${layerPath}.ts`;
}

/** A module `layerPath` owns, to import. */
function probeTarget(layerPath: string): string {
  return layerPath.endsWith("/") ? `${layerPath}probe-target` : layerPath;
}

/** The `@/` and the relative specifier of `target` written in `file`. */
function bothForms(file: string, target: string): [string, string] {
  const relative = path.posix.relative(path.posix.dirname(file), target);
  return [`@/${target}`, relative.startsWith(".") ? relative : `./${relative}`];
}

const LAYERS = LAYER_ROWS.flat();
/** Each layer's probing file and the module others import from it. */
const PROBES = LAYERS.map((layer) => {
  const home = layer.paths.find((p) => !p.startsWith("**/")) ?? layer.paths[0]!;
  return { layer, file: probeFile(home, "probe"), target: probeTarget(home) };
});

/** Every probe file's imports: [file, specifier]. */
const IMPORTS = new Map<string, string[]>();
function addImport(file: string, specifier: string) {
  IMPORTS.set(file, [...(IMPORTS.get(file) ?? []), specifier]);
}

for (const from of PROBES) {
  for (const to of PROBES) {
    if (from.layer.name === to.layer.name) continue;
    for (const specifier of bothForms(from.file, to.target)) addImport(from.file, specifier);
  }
}
const HAND_PROBES = [...MUST_REFUSE, ...MUST_ALLOW].map(([from, target]) => {
  const file = probeFile(from, "probe-hand");
  for (const specifier of bothForms(file, target)) addImport(file, specifier);
  return { from, target, file };
});

const SQL_PROBES: Record<string, { source: string; reported: boolean }> = {
  "runtime/services/deep/er/value-import.ts": {
    source: 'import { getDatabase } from "@/lib/db/database";\nexport const open = getDatabase;\n',
    reported: true,
  },
  "runtime/engine/deep/er/driver.ts": {
    source: 'import postgres from "postgres";\nexport const connect = postgres;\n',
    reported: true,
  },
  "runtime/engine/deep/er/relative-value.ts": {
    source:
      'import { LazyTransaction } from "../../../../lib/db/lazy-transaction";\nexport const T = LazyTransaction;\n',
    reported: true,
  },
  "runtime/engine/deep/er/type-import.ts": {
    source:
      'import type { SqlExecutor } from "@/lib/db/sql-client";\nexport const f = (db: SqlExecutor) => db;\n',
    reported: false,
  },
  "runtime/subagents/deep/er/writes-sql.ts": {
    source: "export const Q = `UPDATE threads SET runnable = true WHERE id = $1`;\n",
    reported: true,
  },
  "runtime/services/deep/er/select-one.ts": {
    source: 'export const ping = (db: { query(s: string): void }) => db.query("SELECT 1");\n',
    reported: true,
  },
  "components/deep/er/select-tag.ts": {
    source: 'export const editable = (tag: string) => ["INPUT", "SELECT"].includes(tag);\n',
    reported: false,
  },
  "runtime/store/deep/er/store-sql.ts": {
    source:
      'import postgres from "postgres";\nexport const Q = "SELECT id FROM threads FOR UPDATE SKIP LOCKED";\nexport const p = postgres;\n',
    reported: false,
  },
  // Once allowed while it moved (STILL_ALLOWED, empty since issue 44's last four files moved).
  "runtime/services/thread-service.ts": {
    source: 'export const Q = "DELETE FROM threads WHERE id = $1";\n',
    reported: true,
  },
};

/** The layer of that name with its row (the list names every layer it ranks). */
function ranked(name: string): RankedLayer {
  const layer = layerNamed(name);
  if (!layer) throw new Error(`no layer ${name}`);
  return layer;
}

/** Import forms the layer rules read: type-only and multi-line imports count like any other. */
const FORM_PROBES: Record<string, { source: string; specifier: string; reported: boolean }> = {
  "runtime/store/deep/er/type-upward.ts": {
    source: 'import type { StepRunner } from "../../../engine/step-runner";\nexport type R = StepRunner;\n',
    specifier: "../../../engine/step-runner",
    reported: true,
  },
  "runtime/tools/deep/er/multi-line.ts": {
    source: 'import {\n  a,\n  type B,\n} from "@/runtime/subagents/spawn-child";\nexport const c: B = a;\n',
    specifier: "@/runtime/subagents/spawn-child",
    reported: true,
  },
  "lib/graph/deep/er/re-export.ts": {
    source: 'export * from "../../../codegen/project-files";\n',
    specifier: "../../../codegen/project-files",
    reported: true,
  },
  "lib/studio/deep/er/dynamic.ts": {
    source: 'export const load = () => import("../../../../runtime/store/thread-store");\n',
    specifier: "../../../../runtime/store/thread-store",
    reported: true,
  },
  "runtime/engine/deep/er/commented.ts": {
    source: '// import { x } from "@/runtime/services/thread-service";\nexport const y = 1;\n',
    specifier: "@/runtime/services/thread-service",
    reported: false,
  },
};

let root = "";
let problems: LayerCheckProblem[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "tandem-layers-"));
  const files: Record<string, string> = { "stray/nowhere.ts": "export const stray = 1;\n" };
  for (const [file, specifiers] of IMPORTS) {
    files[file] = specifiers.map((s, i) => `import * as m${i} from "${s}";\nexport { m${i} };\n`).join("");
  }
  for (const [file, { source }] of Object.entries({ ...SQL_PROBES, ...FORM_PROBES })) files[file] = source;
  for (const [file, source] of Object.entries(files)) {
    await mkdir(path.join(root, path.dirname(file)), { recursive: true });
    await writeFile(path.join(root, file), source);
  }
  problems = await checkLayers(root, Object.keys(files));
}, 60_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** True when the layer rules reported `file`'s import of `specifier`. */
function reported(file: string, specifier: string): boolean {
  return problems.some((p) => p.rule === "layers" && p.file === file && p.specifier === specifier);
}

describe("layer check: every pair of layers in the list", () => {
  const pairs = PROBES.flatMap((from) =>
    PROBES.filter((to) => to.layer.name !== from.layer.name).map((to) => {
      const refused = forbiddenReason(ranked(from.layer.name), ranked(to.layer.name), to.target) !== null;
      return [`${from.layer.name} → ${to.layer.name}`, from, to, refused] as const;
    }),
  );

  it("probes both ways across at least one refused and one allowed pair per layer", () => {
    for (const { layer } of PROBES) {
      expect(pairs.some(([, from, , refused]) => from.layer === layer && refused)).toBe(true);
    }
    expect(pairs.filter(([, , , refused]) => !refused).length).toBeGreaterThan(100);
  });

  it.each(pairs)("%s", (_name, from, to, refused) => {
    for (const specifier of bothForms(from.file, to.target)) {
      expect(reported(from.file, specifier), `${from.file} imports ${specifier}`).toBe(refused);
    }
  });
});

describe("layer check: the boundaries the project relies on", () => {
  it.each(HAND_PROBES.filter((_, i) => i < MUST_REFUSE.length))(
    "refuses $from → $target",
    ({ file, target }) => {
      for (const specifier of bothForms(file, target)) {
        expect(
          reported(file, specifier),
          `${file} imports ${specifier}\n${JSON.stringify(problems.filter((p) => p.file === file))}`,
        ).toBe(true);
      }
    },
  );

  it.each(HAND_PROBES.filter((_, i) => i >= MUST_REFUSE.length))(
    "allows $from → $target",
    ({ file, target }) => {
      for (const specifier of bothForms(file, target)) {
        expect(reported(file, specifier), `${file} imports ${specifier}`).toBe(false);
      }
    },
  );

  it("relative specifiers climb at least two folders from a folder layer", () => {
    const [, relative] = bothForms(probeFile("runtime/store/", "probe-hand"), "runtime/engine/step-runner");
    expect(relative).toBe("../../../engine/step-runner");
  });

  it.each(Object.entries(FORM_PROBES))(
    "reads the imports of %s",
    (file, { specifier, reported: expected }) => {
      expect(reported(file, specifier), JSON.stringify(problems.filter((p) => p.file === file))).toBe(
        expected,
      );
    },
  );

  it("reports a file that belongs to no layer", () => {
    expect(problems.some((p) => p.file === "stray/nowhere.ts" && p.message.includes("no layer"))).toBe(true);
  });
});

describe("layer check: only runtime/store and lib/db talk to the database", () => {
  it.each(Object.entries(SQL_PROBES))("%s", (file, { reported: expected }) => {
    const database = problems.filter((p) => p.file === file && p.rule === "sql");
    expect(database.length > 0, JSON.stringify(database)).toBe(expected);
  });
});
