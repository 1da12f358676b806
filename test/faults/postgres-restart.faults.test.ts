// The database goes away mid-run (issue: reliability): a private Postgres cluster is stopped and
// started again while a tree of threads runs. Connections drop, in-flight transactions roll back;
// the server reconnects, the scheduler's poll finds the work again, and the tree finishes with
// every invariant intact.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "../../lib/db/migrations";
import { sqlClientFromPostgres } from "../../lib/db/sql-client";
import type { ServerFixture } from "../support/fixture";
import { requestJson } from "../support/http";
import { freePort, ROOT, startTestServer, type TestServer } from "../support/server";
import { assetBundle } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";
import { checkInvariants } from "./invariants";

const SCRIPT = path.join(ROOT, "scripts/postgres-cluster.sh");
const CHILDREN = 6;

let folder = "";
let dataDir = "";
let port = 0;
let server: TestServer | undefined;
let databaseUrl = "";

const cluster = {
  start: () => execFileSync(SCRIPT, ["start", dataDir, String(port)], { stdio: "ignore" }),
  stop: () => execFileSync(SCRIPT, ["stop", dataDir], { stdio: "ignore" }),
};

const fixture: ServerFixture = {
  get server() {
    if (!server) throw new Error("no server");
    return server;
  },
  get databaseUrl() {
    return databaseUrl;
  },
  api: (method, route, body) => requestJson(fixture.server.baseUrl, method, route, body),
};
const { projectWith, startThread } = threadHelpers(fixture);

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-faults-pg-"));
  fs.chmodSync(folder, 0o755); // the postgres user must reach the cluster inside it
  dataDir = path.join(folder, "data");
  port = await freePort();
  cluster.start();
  const admin = postgres(`postgresql://postgres@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe("CREATE DATABASE tandem_restart");
  await admin.end();
  databaseUrl = `postgresql://postgres@127.0.0.1:${port}/tandem_restart`;
  const migrator = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await applyMigrations(sqlClientFromPostgres(migrator));
  await migrator.end();
  server = await startTestServer({ DATABASE_URL: databaseUrl, TANDEM_LEASE_MS: "1500" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  try {
    cluster.stop();
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

describe("a Postgres restart in the middle of a run", () => {
  it("reconnects and finishes the tree with every report exactly once", async () => {
    const calls = Array.from({ length: CHILDREN }, (_, index) => ({
      name: "asset_subagent",
      args: { task: `task ${index + 1}` },
    }));
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false, initUserMessageProperty: "task" },
        orchestratorScript: [{ toolCalls: calls }, { text: "waiting", delayMs: 400 }],
        workerScript: [{ text: "Draft: {{input}}", delayMs: 1_200 }],
      }),
    );
    const rootId = await startThread(projectId, "orchestrator", "Start the workers.");
    // Restart while the children are mid-call.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const tree = await fixture.api<{ root: { children: unknown[] } }>("GET", `/api/threads/${rootId}/tree`);
      if (tree.body.root.children.length === CHILDREN) break;
      if (Date.now() > deadline) throw new Error("the children never started");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    cluster.start();

    const settleBy = Date.now() + 90_000;
    for (;;) {
      // The reports first, then the tree: idle after all six reports means it answered the last.
      const reports = await fixture
        .api<{ messages: { silent: boolean; content: string | null }[] }>(
          "GET",
          `/api/threads/${rootId}/messages?includeSilent=true`,
        )
        .then((response) =>
          (response.body.messages ?? []).filter(
            (message) => message.silent && (message.content ?? "").startsWith("Subagent (reference: "),
          ),
        )
        .catch(() => []);
      const tree = await fixture
        .api<{ root: { status: string; children: { status: string }[] } }>(
          "GET",
          `/api/threads/${rootId}/tree`,
        )
        .catch(() => null);
      if (
        tree?.status === 200 &&
        tree.body.root.status === "idle" &&
        tree.body.root.children.every((child) => child.status === "completed") &&
        reports.length === CHILDREN
      )
        break;
      if (Date.now() > settleBy)
        throw new Error(`the tree did not finish after the restart: ${JSON.stringify(tree?.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(fixture.server.output()).not.toMatch(/unhandled/i);
    await checkInvariants(fixture, rootId);
  }, 120_000);
});
