// Scale-out (issue 7): app servers and `npm run worker` processes on one Postgres. Two app servers
// (one with TANDEM_RUN_THREADS=false) and two workers run a batch with a subagent fan-out to the end,
// every child reported exactly once; a SIGKILLed worker's threads run elsewhere within 10 s with the
// default lease; a SIGTERMed worker drains, exits 0 and loses nothing; NOTIFY wakes workers across
// processes with the poll turned off.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIsolatedDatabaseConfig } from "../support/database";
import type { ServerFixture } from "../support/fixture";
import { requestJson } from "../support/http";
import { startTestServer, type TestServer } from "../support/server";
import { assetBundle } from "../support/subagent-bundles";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";
import { startTestWorker, type TestWorker } from "../support/worker";

// Few slots per process, so a batch spreads over every process that runs threads.
// Three threads per process at most: a step waiting on its model leaves its slot (issue 19), so with
// the default TANDEM_MAX_CLAIMED_THREADS the first process to wake would hold every thread of these
// tests, and none would be left for the worker each test kills or drains.
const SHARED = { TANDEM_CONCURRENCY: "3", TANDEM_MAX_CLAIMED_THREADS: "3" };
const FAN_OUT = 3;

function fixtureFor(server: () => TestServer, databaseUrl: () => string): ServerFixture {
  return {
    get server() {
      return server();
    },
    get databaseUrl() {
      return databaseUrl();
    },
    api: (method, path, body) => requestJson(server().baseUrl, method, path, body),
  };
}

function fanOutBundle(workerDelayMs: number) {
  const calls = Array.from({ length: FAN_OUT }, (_, index) => ({
    name: "asset_subagent",
    args: { task: `task ${index + 1}` },
  }));
  return assetBundle({
    config: { blocking: false, initUserMessageProperty: "task" },
    orchestratorScript: [{ toolCalls: calls }, { text: "started" }, { text: "noted" }, { text: "noted" }],
    workerScript: [{ text: "Draft: {{input}}", delayMs: workerDelayMs }],
  });
}

const chatBundle = (delayMs: number) => ({
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true }],
  models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "answer", delayMs }] }],
  tools: [],
});

const reportsBy = (messages: ApiMessage[]) => {
  const counts = new Map<string, number>();
  for (const message of messages) {
    const subagent = (message as ApiMessage & { subagent_id: string | null }).subagent_id;
    if (message.silent && subagent && message.content?.startsWith("Subagent (reference:"))
      counts.set(subagent, (counts.get(subagent) ?? 0) + 1);
  }
  return counts;
};

// Postgres only, as the whole fault suite (its setup insists): an embedded database cannot be shared.
describe("app servers and workers on one Postgres", () => {
  let url = "";
  let drop: (() => Promise<void>) | undefined;
  let sql: postgres.Sql;
  let appA: TestServer | undefined;
  let appB: TestServer | undefined;
  const workers: TestWorker[] = [];
  const viaA = threadHelpers(
    fixtureFor(
      () => appA as TestServer,
      () => url,
    ),
  );
  const viaB = threadHelpers(
    fixtureFor(
      () => appB as TestServer,
      () => url,
    ),
  );

  beforeAll(async () => {
    const database = await createIsolatedDatabaseConfig();
    drop = database.drop;
    url = database.env.DATABASE_URL as string;
    sql = postgres(url, { max: 2, onnotice: () => {} });
    appB = await startTestServer({ ...database.env, ...SHARED, TANDEM_RUN_THREADS: "false" });
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.kill()));
    await appA?.stop();
    await appB?.stop();
    await sql?.end();
    await drop?.();
  });

  const leaseOwners = async (ids: string[]) =>
    new Map(
      (
        await sql<{ id: string; lease_owner: string | null }[]>`
          SELECT id, lease_owner FROM threads WHERE id = ANY(${ids}::uuid[])`
      ).map((row) => [row.id, row.lease_owner]),
    );

  async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function expectFanOutsSettled(parents: string[]): Promise<void> {
    const helpers = viaA;
    await waitUntil(
      "every fan-out settled",
      async () => {
        for (const parentId of parents) {
          const reports = reportsBy(await helpers.messagesOf(parentId, true));
          const parent = await helpers.waitFor(parentId, ["idle", "running", "queued"]);
          if (reports.size < FAN_OUT || parent.status !== "idle") return false;
        }
        return true;
      },
      60_000,
    );
    for (const parentId of parents) {
      const reports = reportsBy(await helpers.messagesOf(parentId, true));
      expect([...reports.values()]).toEqual(Array(FAN_OUT).fill(1));
      for (const childId of reports.keys()) {
        const child = await helpers.waitFor(childId, ["completed"]);
        expect(child.result).toMatch(/^Approved Draft: task \d$/);
        const messages = await helpers.messagesOf(childId, true);
        expect(messages.filter((message) => message.name === "approve_asset")).toHaveLength(1);
      }
    }
  }

  it("wakes a worker through NOTIFY across processes (the worker's poll is off)", async () => {
    const sleepy = await startTestWorker({ DATABASE_URL: url, ...SHARED, TANDEM_POLL_MS: "600000" });
    try {
      const project = await viaB.projectWith(chatBundle(0));
      for (let round = 0; round < 3; round++) {
        const started = Date.now();
        const threadId = await viaB.startThread(project, "assistant", `hello ${round}`);
        await viaB.waitFor(threadId, ["idle"], 5_000);
        expect(Date.now() - started).toBeLessThan(5_000);
      }
    } finally {
      expect(await sleepy.stop()).toBe(0);
    }
  });

  it("runs a batch with a subagent fan-out on two app servers and two workers, each child reported once", async () => {
    appA = await startTestServer({ DATABASE_URL: url, ...SHARED });
    workers.push(await startTestWorker({ DATABASE_URL: url, ...SHARED }, "worker-1"));
    workers.push(await startTestWorker({ DATABASE_URL: url, ...SHARED }, "worker-2"));
    const fanOut = await viaA.projectWith(fanOutBundle(200));
    const chat = await viaB.projectWith(chatBundle(100));
    const owners = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows = await sql<{ pid: string }[]>`
          SELECT DISTINCT split_part(lease_owner, ':', 1) AS pid FROM threads WHERE lease_owner IS NOT NULL`;
        for (const row of rows) owners.add(row.pid);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const parents: string[] = [];
    const chats: string[] = [];
    for (let index = 0; index < 4; index++) {
      const via = index % 2 === 0 ? viaA : viaB;
      parents.push(await via.startThread(fanOut, "orchestrator", `batch ${index}`));
      chats.push(await via.startThread(chat, "assistant", `chat ${index}`));
    }
    await expectFanOutsSettled(parents);
    for (const id of chats) {
      await viaA.waitFor(id, ["idle"]);
      const messages = await viaA.messagesOf(id);
      expect(messages.filter((message) => message.role === "assistant")).toHaveLength(1);
    }
    sampling = false;
    await sampler;
    // Both workers ran threads, and only three processes did (app server B runs none).
    for (const worker of workers) expect(owners.has(String(worker.pid))).toBe(true);
    expect(owners.size).toBeLessThanOrEqual(3);
  });

  it("moves a SIGKILLed worker's threads to other processes within 10 s (default lease)", async () => {
    const project = await viaA.projectWith(chatBundle(6_000));
    const ids: string[] = [];
    for (let index = 0; index < 6; index++)
      ids.push(await viaB.startThread(project, "assistant", `k${index}`));
    // App server A has 3 slots, so a worker runs some of the 6; that worker is the victim. The other
    // processes keep as many slots free as it holds.
    let victim: TestWorker | undefined;
    let onVictim: string[] = [];
    await waitUntil("a worker runs some threads", async () => {
      const owners = await leaseOwners(ids);
      victim = workers.find((worker) => ids.some((id) => owners.get(id)?.startsWith(worker.ownerPrefix)));
      onVictim = victim
        ? ids.filter((id) => owners.get(id)?.startsWith((victim as TestWorker).ownerPrefix))
        : [];
      return onVictim.length > 0;
    });
    if (!victim) throw new Error("no worker runs threads");
    workers.splice(workers.indexOf(victim), 1);
    await victim.kill();
    const killedAt = Date.now();
    await waitUntil(
      "every thread of the victim is claimed elsewhere",
      async () => {
        const owners = await leaseOwners(onVictim);
        return onVictim.every((id) => {
          const owner = owners.get(id);
          return typeof owner === "string" && !owner.startsWith((victim as TestWorker).ownerPrefix);
        });
      },
      20_000,
    );
    const recoveryMs = Date.now() - killedAt;
    console.log(
      `[scale-out] ${onVictim.length} threads of a SIGKILLed worker ran elsewhere after ${recoveryMs} ms`,
    );
    expect(recoveryMs).toBeLessThanOrEqual(10_000);
    for (const id of ids) {
      await viaA.waitFor(id, ["idle"], 40_000);
      const messages = await viaA.messagesOf(id);
      expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    }
    workers.push(await startTestWorker({ DATABASE_URL: url, ...SHARED }, "worker-3"));
  });

  it("drains a SIGTERMed worker: in-flight steps finish, the rest is handed back, exit 0, nothing lost", async () => {
    const [draining] = workers.splice(0, 1) as [TestWorker];
    const project = await viaA.projectWith(fanOutBundle(1_500));
    const parents: string[] = [];
    for (let index = 0; index < 3; index++)
      parents.push(await viaB.startThread(project, "orchestrator", `drain ${index}`));
    await waitUntil("the draining worker runs children", async () => {
      const rows = await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM threads
        WHERE parent_id IS NOT NULL AND lease_owner LIKE ${`${draining.ownerPrefix}%`}`;
      return (rows[0]?.n ?? 0) > 0;
    });
    const started = Date.now();
    const code = await draining.stop();
    const drainMs = Date.now() - started;
    expect(code).toBe(0);
    expect(draining.output()).toMatch(/drained: [1-9]\d* stopped at a step boundary, 0 aborted mid-step/);
    // The 1.5 s steps in flight finished well inside the 10 s deadline.
    expect(drainMs).toBeLessThan(8_000);
    const left = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM threads WHERE lease_owner LIKE ${`${draining.ownerPrefix}%`}`;
    expect(left[0]?.n).toBe(0);
    await expectFanOutsSettled(parents);
  });

  it("hands a draining worker's unfinished steps back at its deadline: no lease left behind, exit 0, nothing lost", async () => {
    const hurried = await startTestWorker(
      { DATABASE_URL: url, ...SHARED, TANDEM_DRAIN_MS: "300" },
      "worker-4",
    );
    const project = await viaA.projectWith(chatBundle(4_000));
    const ids: string[] = [];
    for (let index = 0; index < 9; index++)
      ids.push(await viaB.startThread(project, "assistant", `h${index}`));
    let onHurried: string[] = [];
    await waitUntil("the hurried worker runs some threads", async () => {
      const owners = await leaseOwners(ids);
      onHurried = ids.filter((id) => owners.get(id)?.startsWith(hurried.ownerPrefix));
      return onHurried.length > 0;
    });
    const stoppedAt = Date.now();
    expect(await hurried.stop()).toBe(0);
    expect(hurried.output()).toMatch(/, [1-9]\d* aborted mid-step/);
    // Handed back before it exited: no lease of it is left to expire (others claim them when free).
    const owners = await leaseOwners(onHurried);
    expect(onHurried.filter((id) => owners.get(id)?.startsWith(hurried.ownerPrefix))).toEqual([]);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    for (const id of ids) {
      await viaA.waitFor(id, ["idle"], 40_000);
      expect((await viaA.messagesOf(id)).map((message) => message.role)).toEqual(["user", "assistant"]);
    }
  });
});
