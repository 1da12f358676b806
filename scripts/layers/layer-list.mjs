// THE ordered list of the repository's layers, top to bottom: the one source of the import rules that
// `npm run lint` checks (scripts/layers/check-layers.mjs) and of the drawing in docs/runtime.md.
//
// Each row is a tier; a file may import its own layer and any layer of a LOWER row, never a higher
// row and never a peer on its own row. A layer owns the paths listed (a folder ends with "/", a file is
// named without its extension, "**/*.test" is any file whose name ends so); the most specific path wins.
// `side`: "client" and "shared" layers never import "server" layers (components and lib/ run in the
// browser); "tooling" and "edge" may. `serverEntries`: the only server modules an edge layer may import.
// `never`: lower layers a layer still may not import, each with its reason.
// To add a folder: put it in the row that matches what it imports and is imported by (docs/runtime.md).

/** @typedef {{ name: string, paths: string[], side: "tooling" | "edge" | "client" | "shared" | "server", serverEntries?: string[], never?: { layer: string, why: string }[] }} Layer */

/** @type {Layer[][]} */
export const LAYER_ROWS = [
  [
    { name: "tests", paths: ["test/", "e2e/", "**/*.test", "**/*.spec"], side: "tooling" },
    { name: "bench", paths: ["bench/"], side: "tooling" },
  ],
  [{ name: "test-support", paths: ["test/support/"], side: "tooling" }],
  [
    {
      name: "scripts",
      paths: [
        "scripts/",
        "playwright.config",
        "vitest.config",
        "vitest.mutation.config",
        "stryker.config",
        "prisma.config",
        "postcss.config",
      ],
      side: "tooling",
    },
  ],
  [{ name: "entries", paths: ["instrumentation", "proxy", "next.config"], side: "tooling" }],
  [
    {
      name: "app",
      paths: ["app/"],
      side: "edge",
      serverEntries: ["runtime/runtime", "runtime/errors", "runtime/security/api-token", "lib/db/config"],
    },
  ],
  [{ name: "components", paths: ["components/"], side: "client" }],
  [{ name: "runtime/process-lifecycle", paths: ["runtime/process-lifecycle"], side: "server" }],
  [{ name: "runtime/facade", paths: ["runtime/runtime"], side: "server" }],
  [
    { name: "runtime/services", paths: ["runtime/services/"], side: "server" },
    { name: "runtime/events", paths: ["runtime/events/"], side: "server" },
  ],
  [
    { name: "runtime/scheduler", paths: ["runtime/scheduler/"], side: "server" },
    { name: "runtime/effects", paths: ["runtime/effects/"], side: "server" },
  ],
  [{ name: "runtime/engine", paths: ["runtime/engine/"], side: "server" }],
  [{ name: "runtime/subagents", paths: ["runtime/subagents/"], side: "server" }],
  [{ name: "runtime/tools", paths: ["runtime/tools/"], side: "server" }],
  [
    { name: "runtime/store", paths: ["runtime/store/"], side: "server" },
    { name: "runtime/telemetry", paths: ["runtime/telemetry/"], side: "server" },
  ],
  [
    {
      name: "runtime/sandbox",
      paths: ["runtime/sandbox/"],
      side: "server",
      never: [{ layer: "runtime/models", why: "the sandbox runs extension code and never calls a model" }],
    },
  ],
  [
    { name: "runtime/models", paths: ["runtime/models/"], side: "server" },
    { name: "runtime/extensions", paths: ["runtime/extensions/"], side: "server" },
  ],
  [{ name: "runtime/security", paths: ["runtime/security/"], side: "server" }],
  [
    { name: "runtime/errors", paths: ["runtime/errors"], side: "server" },
    { name: "runtime/faults", paths: ["runtime/faults"], side: "server" },
  ],
  [
    { name: "lib/studio", paths: ["lib/studio/"], side: "shared" },
    { name: "lib/api", paths: ["lib/api/"], side: "shared" },
  ],
  [
    { name: "lib/access", paths: ["lib/access/"], side: "shared" },
    { name: "lib/codegen", paths: ["lib/codegen/"], side: "shared" },
    { name: "lib/chat", paths: ["lib/chat/"], side: "shared" },
    { name: "lib/live", paths: ["lib/live/"], side: "shared" },
  ],
  [
    { name: "lib/graph", paths: ["lib/graph/"], side: "shared" },
    { name: "lib/versions", paths: ["lib/versions/"], side: "shared" },
    { name: "lib/evals", paths: ["lib/evals/"], side: "shared" },
    { name: "lib/markdown", paths: ["lib/markdown/"], side: "shared" },
  ],
  [{ name: "lib/standard", paths: ["lib/standard/"], side: "shared" }],
  [
    { name: "lib/contracts", paths: ["lib/contracts/"], side: "shared" },
    { name: "lib/text", paths: ["lib/text/"], side: "shared" },
    { name: "lib/runs", paths: ["lib/runs/"], side: "shared" },
    { name: "lib/routing", paths: ["lib/routing/"], side: "shared" },
  ],
  [{ name: "lib/db", paths: ["lib/db/"], side: "server" }],
];
