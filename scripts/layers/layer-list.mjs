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

/** @typedef {{ name: string, about?: string, paths: string[], side: "tooling" | "edge" | "client" | "shared" | "server", serverEntries?: string[], never?: { layer: string, why: string }[] }} Layer */

/** @type {Layer[][]} */
export const LAYER_ROWS = [
  [
    {
      name: "tests",
      about: "any *.test/*.spec file, test/, e2e/",
      paths: ["test/", "e2e/", "**/*.test", "**/*.spec"],
      side: "tooling",
    },
    { name: "bench", about: "benchmarks", paths: ["bench/"], side: "tooling" },
  ],
  [{ name: "test-support", about: "every test-only helper", paths: ["test/support/"], side: "tooling" }],
  [
    {
      name: "scripts",
      about: "tooling and root config files",
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
  [
    {
      name: "entries",
      about: "instrumentation.ts, proxy.ts, next.config",
      paths: ["instrumentation", "proxy", "next.config"],
      side: "tooling",
    },
  ],
  [
    {
      name: "app",
      about: "pages and thin routes",
      paths: ["app/"],
      side: "edge",
      serverEntries: ["runtime/runtime", "runtime/errors", "runtime/security/api-token", "lib/db/config"],
    },
  ],
  [{ name: "components", about: "React", paths: ["components/"], side: "client" }],
  [
    {
      name: "runtime/process-lifecycle",
      about: "server / worker start and drain",
      paths: ["runtime/process-lifecycle"],
      side: "server",
    },
  ],
  [
    {
      name: "runtime/facade",
      about: "runtime.ts: the Runtime object",
      paths: ["runtime/runtime"],
      side: "server",
    },
  ],
  [
    { name: "runtime/services", about: "what routes call", paths: ["runtime/services/"], side: "server" },
    { name: "runtime/events", about: "live NOTIFY fan-out", paths: ["runtime/events/"], side: "server" },
  ],
  [
    {
      name: "runtime/scheduler",
      about: "leases, claims, the work loop",
      paths: ["runtime/scheduler/"],
      side: "server",
    },
    { name: "runtime/effects", about: "scheduled effects", paths: ["runtime/effects/"], side: "server" },
  ],
  [
    {
      name: "runtime/engine",
      about: "the step runner and its phases",
      paths: ["runtime/engine/"],
      side: "server",
    },
  ],
  [
    {
      name: "runtime/subagents",
      about: "parent/child, spec §7",
      paths: ["runtime/subagents/"],
      side: "server",
    },
  ],
  [
    {
      name: "runtime/tools",
      about: "built-in, code and HTTP tools",
      paths: ["runtime/tools/"],
      side: "server",
    },
  ],
  [
    {
      name: "runtime/store",
      about: "the only code that talks to the database",
      paths: ["runtime/store/"],
      side: "server",
    },
    { name: "runtime/telemetry", about: "metrics and traces", paths: ["runtime/telemetry/"], side: "server" },
  ],
  [
    {
      name: "runtime/sandbox",
      about: "QuickJS runCode",
      paths: ["runtime/sandbox/"],
      side: "server",
      never: [{ layer: "runtime/models", why: "the sandbox runs extension code and never calls a model" }],
    },
  ],
  [
    { name: "runtime/models", about: "model providers", paths: ["runtime/models/"], side: "server" },
    {
      name: "runtime/extensions",
      about: "code tools and hooks",
      paths: ["runtime/extensions/"],
      side: "server",
    },
  ],
  [{ name: "runtime/security", about: "API token, redaction", paths: ["runtime/security/"], side: "server" }],
  [
    { name: "runtime/errors", about: "leaf", paths: ["runtime/errors"], side: "server" },
    { name: "runtime/faults", about: "leaf", paths: ["runtime/faults"], side: "server" },
  ],
  [
    { name: "lib/studio", about: "the canvas' state", paths: ["lib/studio/"], side: "shared" },
    { name: "lib/api", about: "the browser's API client", paths: ["lib/api/"], side: "shared" },
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
  [{ name: "lib/db", about: "the SQL client, server only", paths: ["lib/db/"], side: "server" }],
];
