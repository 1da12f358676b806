// Nothing lost or duplicated at load (issue 19): a parent spawns 500 non-blocking children in one
// reply (one assistant message with 500 tool calls: the spawn batch), and the server is SIGKILLed in
// the middle of the fan-out, when some children have ended and reported and others have not (a
// TANDEM_CRASH_AT crash point with an occurrence count, runtime/faults.ts). It restarts and is killed
// once more while it finishes the rest, then restarts for good. Then every child must end exactly
// once, each child's report reach the parent exactly once, no child be spawned or fed twice, no tool
// call be answered twice, and the fault suite's invariants hold.
//
// The two kills hit both ways a report is written (runtime/subagents/report-to-parent.ts): the first
// process spawned the children, so they report on its one-off path (from what it remembers of the
// spawn, deferred into the child's last statement); the second process never spawned them, so they
// report on the implicit path (read the invocations, queue the report).
//
// The exactly-once checks read the whole tree from the database in a handful of queries (500 children
// through the API would be thousands of requests) into a `FanOutSnapshot`, and
// `exactlyOnceProblems` lists everything wrong with it. A check that cannot fail proves nothing, so
// the test then breaks copies of the real snapshot the ways a broken runtime would (a report delivered
// twice or lost, queued twice or never, a call answered twice, a child spawned, fed or ended twice, a
// child that never ends) and requires each to be named: see `brokenCopies`.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { assetBundle, resultText } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";
import { checkInvariants } from "./invariants";

const FAN_OUT = 500;
/**
 * The first kill: right after the 200th child's terminal commit (its end and its report, one
 * transaction) in the first server process. Children run a few dozen at a time (the scheduler's
 * concurrency), so at that moment about 200 children have ended and reported, some are mid-step and
 * the rest have not started: the test checks that this is so before restarting.
 */
const FIRST_KILL_AFTER = 200;
const FIRST_CRASH = `after_terminal_commit@asset_subagent#${FIRST_KILL_AFTER}`;
/**
 * The second kill, in the restarted process: the 100th child report it commits, before the parent is
 * woken (the wake-up is lost with the process; the poll's lost-wake-up repair must find the report).
 * About 300 children are left after the first kill, so this too falls in the middle.
 */
const SECOND_KILL_AFTER = 100;
const SECOND_CRASH = `before_parent_wake@asset_subagent#${SECOND_KILL_AFTER}`;

// Short leases so the killed server's threads are reclaimed quickly after each restart (as in
// subagent-crashes.faults.test.ts); the first crash point is armed from the first server process on.
const fixture = testServerForFile({
  TANDEM_LEASE_MS: "1500",
  TANDEM_HOOK_TIMEOUT_MS: "1000",
  TANDEM_CRASH_AT: FIRST_CRASH,
});
const { projectWith, startThread } = threadHelpers(fixture);

const TERMINAL = ["completed", "failed", "stopped", "terminated"];
const REPORT_PREFIX = "Subagent (reference: ";
const task = (index: number) => `task ${index + 1}`;

function fanOutBundle() {
  return assetBundle({
    config: { blocking: false, initUserMessageProperty: "task" },
    orchestratorScript: [
      {
        toolCalls: Array.from({ length: FAN_OUT }, (_, index) => ({
          name: "asset_subagent",
          args: { task: task(index) },
        })),
      },
      { text: "started" },
      // One turn per batch of reports drained; never more turns than reports.
      ...Array.from({ length: FAN_OUT + 1 }, () => ({ text: "noted" })),
    ],
    // The worker drafts "Draft: task N"; the default reviewer updates its status, then approve_asset
    // ends the session with "Approved Draft: task N".
    workerScript: [{ text: "Draft: {{input}}" }],
  });
}

/** The stored truth about one parent and its children, as the exactly-once checks read it. */
interface FanOutSnapshot {
  parent: { status: string; runnable: boolean; unconsumedInbox: number };
  /** The ids of the asset_subagent calls in the parent's assistant messages. */
  calls: string[];
  /** The parent's tool results for asset_subagent. */
  toolResults: { tool_call_id: string; tool_status: string | null; content: string | null }[];
  /** The child registry of the parent. */
  links: { child_id: string; spawn_call_id: string }[];
  /** Every thread whose parent is the parent. */
  children: { id: string; status: string; result: string | null }[];
  /** The children's first inputs (side null, role user). */
  firstInputs: { thread_id: string; content: string | null }[];
  /** The children's answered session ends (approve_asset tool results). */
  sessionEnds: { thread_id: string }[];
  invocations: { id: string; child_id: string; call_id: string; status: string; finished: boolean }[];
  /** The parent's silent report messages (what its model reads). */
  reports: { subagent_id: string | null; content: string | null }[];
  /** The parent's queued reports (inbox items keyed `subagent-report:<invocation id>`). */
  reportItems: { idempotency_key: string; consumed: boolean }[];
}

async function readSnapshot(sql: postgres.Sql, parentId: string): Promise<FanOutSnapshot> {
  const [parent] = await sql<{ status: string; runnable: boolean; unconsumed: number }[]>`
    SELECT status, runnable,
           (SELECT count(*)::int FROM inbox_items WHERE thread_id = t.id AND consumed_at IS NULL) AS unconsumed
    FROM threads t WHERE id = ${parentId}`;
  if (!parent) throw new Error(`no parent ${parentId}`);
  const calls = await sql<{ id: string }[]>`
    SELECT call ->> 'id' AS id
    FROM messages m, jsonb_array_elements(m.tool_calls) AS call
    WHERE m.thread_id = ${parentId} AND m.role = 'assistant' AND m.tool_calls IS NOT NULL
      AND call -> 'function' ->> 'name' = 'asset_subagent'`;
  const toolResults = await sql<FanOutSnapshot["toolResults"]>`
    SELECT tool_call_id, tool_status, content FROM messages
    WHERE thread_id = ${parentId} AND role = 'tool' AND name = 'asset_subagent'`;
  const links = await sql<FanOutSnapshot["links"]>`
    SELECT child_id::text, spawn_call_id FROM subagents WHERE parent_id = ${parentId}`;
  const children = await sql<FanOutSnapshot["children"]>`
    SELECT id::text, status, result FROM threads WHERE parent_id = ${parentId}`;
  const firstInputs = await sql<FanOutSnapshot["firstInputs"]>`
    SELECT m.thread_id::text, m.content FROM messages m JOIN threads t ON t.id = m.thread_id
    WHERE t.parent_id = ${parentId} AND m.side IS NULL AND m.role = 'user'`;
  const sessionEnds = await sql<FanOutSnapshot["sessionEnds"]>`
    SELECT m.thread_id::text FROM messages m JOIN threads t ON t.id = m.thread_id
    WHERE t.parent_id = ${parentId} AND m.role = 'tool' AND m.name = 'approve_asset'`;
  const invocations = await sql<FanOutSnapshot["invocations"]>`
    SELECT id::text, child_id::text, call_id, status, finished_at IS NOT NULL AS finished
    FROM subagent_invocations WHERE parent_id = ${parentId}`;
  const reports = await sql<FanOutSnapshot["reports"]>`
    SELECT subagent_id::text, content FROM messages
    WHERE thread_id = ${parentId} AND silent AND subagent_id IS NOT NULL
      AND starts_with(coalesce(content, ''), ${REPORT_PREFIX})`;
  const reportItems = await sql<FanOutSnapshot["reportItems"]>`
    SELECT idempotency_key, consumed_at IS NOT NULL AS consumed FROM inbox_items
    WHERE thread_id = ${parentId} AND idempotency_key LIKE 'subagent-report:%'`;
  return {
    parent: { status: parent.status, runnable: parent.runnable, unconsumedInbox: parent.unconsumed },
    calls: calls.map((call) => call.id),
    toolResults: [...toolResults],
    links: [...links],
    children: [...children],
    firstInputs: [...firstInputs],
    sessionEnds: [...sessionEnds],
    invocations: [...invocations],
    reports: [...reports],
    reportItems: [...reportItems],
  };
}

function countBy<T>(items: readonly T[], key: (item: T) => string | null): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/**
 * Everything that breaks "each of `fanOut` children spawned once, fed once, ended once, reported
 * once, each call answered once" in a settled snapshot; empty when all holds. Each problem names the
 * rule and up to five offenders.
 */
function exactlyOnceProblems(snapshot: FanOutSnapshot, fanOut: number): string[] {
  const problems: string[] = [];
  const check = (rule: string, offenders: unknown[]) => {
    if (offenders.length > 0)
      problems.push(`${rule}: ${offenders.length} (e.g. ${JSON.stringify(offenders.slice(0, 5))})`);
  };

  // Spawned once: one call per task, one registry entry and one thread per call.
  const calls = new Set(snapshot.calls);
  check(
    `the parent made ${fanOut} distinct asset_subagent calls`,
    snapshot.calls.length === fanOut && calls.size === fanOut ? [] : [snapshot.calls.length, calls.size],
  );
  const linkCounts = countBy(snapshot.links, (link) => link.spawn_call_id);
  check(
    "calls spawned not exactly once",
    [...snapshot.calls].map((id) => [id, linkCounts.get(id) ?? 0]).filter(([, count]) => count !== 1),
  );
  check(
    "registry entries for no call of the parent",
    snapshot.links.filter((link) => !calls.has(link.spawn_call_id)),
  );
  const linked = new Map(snapshot.links.map((link) => [link.child_id, link.spawn_call_id]));
  check(
    "child threads outside the registry (a spawn made twice)",
    snapshot.children.filter((child) => !linked.has(child.id)).map((child) => child.id),
  );
  const children = new Map(snapshot.children.map((child) => [child.id, child]));
  check(
    "registry entries without a thread",
    [...linked.keys()].filter((id) => !children.has(id)),
  );

  // Each call answered once, about its own child.
  const answers = countBy(snapshot.toolResults, (result) => result.tool_call_id);
  check(
    "calls answered not exactly once",
    snapshot.calls.map((id) => [id, answers.get(id) ?? 0]).filter(([, count]) => count !== 1),
  );
  check(
    "answers to no call",
    [...answers.keys()].filter((id) => id === null || !calls.has(id)),
  );
  const childOfCall = new Map(snapshot.links.map((link) => [link.spawn_call_id, link.child_id]));
  check(
    "answers not naming their call's child, or not successful",
    snapshot.toolResults.filter(
      (result) =>
        result.tool_status !== "success" ||
        /reference: ([0-9a-f-]{36})/.exec(result.content ?? "")?.[1] !==
          childOfCall.get(result.tool_call_id ?? ""),
    ),
  );

  // Fed once: each child one first input, each task to exactly one child.
  const fed = countBy(snapshot.firstInputs, (input) => input.thread_id);
  check(
    "children not fed exactly once",
    snapshot.children.map((child) => [child.id, fed.get(child.id) ?? 0]).filter(([, count]) => count !== 1),
  );
  check(
    "first inputs of no child",
    [...fed.keys()].filter((id) => id === null || !children.has(id)),
  );
  const tasks = countBy(snapshot.firstInputs, (input) => input.content);
  check(
    "tasks not given to exactly one child",
    Array.from({ length: fanOut }, (_, index) => task(index))
      .map((name) => [name, tasks.get(name) ?? 0])
      .filter(([, count]) => count !== 1),
  );

  // Ended once: completed with its own result, one session end, its one invocation finished.
  const inputOf = new Map(snapshot.firstInputs.map((input) => [input.thread_id, input.content]));
  check(
    "children not completed with their own result",
    snapshot.children.filter(
      (child) => child.status !== "completed" || child.result !== `Approved Draft: ${inputOf.get(child.id)}`,
    ),
  );
  const ends = countBy(snapshot.sessionEnds, (end) => end.thread_id);
  check(
    "children not ended exactly once",
    snapshot.children.map((child) => [child.id, ends.get(child.id) ?? 0]).filter(([, count]) => count !== 1),
  );
  const invocationsOf = countBy(snapshot.invocations, (invocation) => invocation.child_id);
  check(
    "children without exactly one invocation",
    snapshot.children
      .map((child) => [child.id, invocationsOf.get(child.id) ?? 0])
      .filter(([, count]) => count !== 1),
  );
  check(
    "invocations not finished as completed for their spawn call",
    snapshot.invocations.filter(
      (invocation) =>
        !invocation.finished ||
        invocation.status !== "completed" ||
        linked.get(invocation.child_id) !== invocation.call_id,
    ),
  );

  // Reported once: one report message per child in the parent, with the child's own result, from
  // one queued item keyed by its invocation, consumed.
  const reports = countBy(snapshot.reports, (report) => report.subagent_id);
  check(
    "children not reported exactly once",
    snapshot.children
      .map((child) => [child.id, reports.get(child.id) ?? 0])
      .filter(([, count]) => count !== 1),
  );
  check(
    "reports from no child",
    [...reports.keys()].filter((id) => id === null || !children.has(id)),
  );
  check(
    "reports whose text is not their child's result",
    snapshot.reports.filter(
      (report) =>
        report.content !==
        resultText(report.subagent_id ?? "", children.get(report.subagent_id ?? "")?.result ?? ""),
    ),
  );
  const items = countBy(snapshot.reportItems, (item) => item.idempotency_key);
  check(
    "invocations not queued as a report exactly once",
    snapshot.invocations
      .map((invocation) => [invocation.id, items.get(`subagent-report:${invocation.id}`) ?? 0])
      .filter(([, count]) => count !== 1),
  );
  check(
    "queued reports never drained",
    snapshot.reportItems.filter((item) => !item.consumed),
  );
  check(
    "queued reports of no invocation",
    snapshot.reportItems.filter(
      (item) =>
        !snapshot.invocations.some(
          (invocation) => item.idempotency_key === `subagent-report:${invocation.id}`,
        ),
    ),
  );

  // And the parent has taken everything in.
  check(
    "the parent is not at rest with an empty inbox",
    snapshot.parent.status === "idle" && !snapshot.parent.runnable && snapshot.parent.unconsumedInbox === 0
      ? []
      : [snapshot.parent],
  );
  return problems;
}

/**
 * Copies of a good snapshot broken the ways a broken runtime would break it, each with the rule that
 * must name it. If `exactlyOnceProblems` missed any, the test above could pass on a runtime that
 * loses or duplicates reports.
 */
function brokenCopies(good: FanOutSnapshot): { what: string; snapshot: FanOutSnapshot; named: string }[] {
  const copy = (): FanOutSnapshot => structuredClone(good);
  const broken: { what: string; snapshot: FanOutSnapshot; named: string }[] = [];
  const add = (what: string, named: string, edit: (snapshot: FanOutSnapshot) => void) => {
    const snapshot = copy();
    edit(snapshot);
    broken.push({ what, snapshot, named });
  };
  const middle = Math.floor(good.reports.length / 2);
  add("a report delivered twice", "children not reported exactly once", (s) =>
    s.reports.push({ ...s.reports[middle]! }),
  );
  add("a report lost", "children not reported exactly once", (s) => s.reports.splice(middle, 1));
  add("a report queued twice", "invocations not queued as a report exactly once", (s) =>
    s.reportItems.push({ ...s.reportItems[middle]! }),
  );
  add("a report never queued", "invocations not queued as a report exactly once", (s) =>
    s.reportItems.splice(middle, 1),
  );
  add("a report left in the inbox", "queued reports never drained", (s) => {
    s.reportItems[0]!.consumed = false;
  });
  add("a report about another child", "reports whose text is not their child's result", (s) => {
    s.reports[0]!.content = s.reports[1]!.content;
  });
  add("a call answered twice", "calls answered not exactly once", (s) =>
    s.toolResults.push({ ...s.toolResults[middle]! }),
  );
  add("a child spawned twice", "child threads outside the registry", (s) =>
    s.children.push({ ...s.children[middle]!, id: "00000000-0000-4000-8000-000000000000" }),
  );
  add("a child fed twice", "children not fed exactly once", (s) =>
    s.firstInputs.push({ ...s.firstInputs[middle]! }),
  );
  add("a child ended twice", "children not ended exactly once", (s) =>
    s.sessionEnds.push({ ...s.sessionEnds[middle]! }),
  );
  add("a child that never ended", "children not completed with their own result", (s) => {
    s.children[middle]!.status = "running";
  });
  return broken;
}

/** Polls the database until the tree is quiet: every child ended, every one reported, the parent at rest. */
async function settled(sql: postgres.Sql, parentId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const [state] = await sql<{ ended: number; reported: number; parent: string; busy: boolean }[]>`
      SELECT
        (SELECT count(*)::int FROM threads WHERE parent_id = ${parentId} AND status = ANY(${TERMINAL}::text[])) AS ended,
        (SELECT count(DISTINCT subagent_id)::int FROM messages
          WHERE thread_id = ${parentId} AND silent AND subagent_id IS NOT NULL) AS reported,
        (SELECT status FROM threads WHERE id = ${parentId}) AS parent,
        (SELECT runnable OR lease_owner IS NOT NULL FROM threads WHERE id = ${parentId})
          OR EXISTS (SELECT 1 FROM inbox_items WHERE thread_id = ${parentId} AND consumed_at IS NULL) AS busy`;
    last = state;
    if (
      state &&
      state.ended === FAN_OUT &&
      state.reported === FAN_OUT &&
      state.parent === "idle" &&
      !state.busy
    )
      return;
    if (Date.now() > deadline)
      throw new Error(`the fan-out did not settle in ${timeoutMs} ms: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** How far the fan-out had got when the server died, read from the database. */
async function progress(sql: postgres.Sql, parentId: string) {
  const [row] = await sql<{ spawned: number; ended: number; queued: number }[]>`
    SELECT
      (SELECT count(*)::int FROM threads WHERE parent_id = ${parentId}) AS spawned,
      (SELECT count(*)::int FROM threads
        WHERE parent_id = ${parentId} AND status = ANY(${TERMINAL}::text[])) AS ended,
      (SELECT count(*)::int FROM inbox_items
        WHERE thread_id = ${parentId} AND idempotency_key LIKE 'subagent-report:%') AS queued`;
  if (!row) throw new Error("no progress row");
  return row;
}

/** Waits for the server to kill itself at `crashAt` (generous: a busy 2-core machine is slow). */
async function killedAt(crashAt: string): Promise<void> {
  await fixture.server.exited(180_000);
  const [point, agent] = crashAt.replace(/#\d+$/, "").split("@");
  expect(fixture.server.output()).toContain(`crash point ${point} reached for ${agent}`);
}

describe(`SIGKILLs in the middle of a ${FAN_OUT}-child fan-out`, () => {
  it(`lose and duplicate nothing: every child ends once and reports once (${FIRST_CRASH}, then ${SECOND_CRASH})`, {
    timeout: 400_000,
  }, async () => {
    const url = fixture.databaseUrl;
    if (!url) throw new Error("The fault suite runs on Postgres.");
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const started = Date.now();
    const log = (what: string, detail: unknown = "") =>
      console.info(
        `[fan-out-kill] ${((Date.now() - started) / 1000).toFixed(1)} s: ${what} ${JSON.stringify(detail)}`,
      );
    try {
      const projectId = await projectWith(fanOutBundle());
      const parentId = await startThread(projectId, "orchestrator", "make five hundred assets");

      // Kill 1, in the middle of the fan-out: some children have ended and reported, most not.
      await killedAt(FIRST_CRASH);
      const first = await progress(sql, parentId);
      log("first kill", first);
      expect(first.spawned).toBeGreaterThanOrEqual(FAN_OUT - 1); // the batch, and perhaps its last call
      expect(first.ended).toBeGreaterThanOrEqual(FIRST_KILL_AFTER);
      expect(first.ended).toBeLessThan(FAN_OUT - SECOND_KILL_AFTER);
      expect(first.queued).toBe(first.ended); // a report in the commit that ends its child

      // Kill 2, while the restarted server finishes the rest: again some reported, some not.
      await fixture.server.restart({ TANDEM_CRASH_AT: SECOND_CRASH });
      await killedAt(SECOND_CRASH);
      const second = await progress(sql, parentId);
      log("second kill", second);
      expect(second.spawned).toBeGreaterThanOrEqual(FAN_OUT - 1);
      expect(second.ended).toBeGreaterThanOrEqual(first.ended + SECOND_KILL_AFTER);
      expect(second.ended).toBeLessThan(FAN_OUT);
      expect(second.queued).toBe(second.ended);

      await fixture.server.restart({ TANDEM_CRASH_AT: "" });
      await settled(sql, parentId, 240_000);
      log("settled");

      const snapshot = await readSnapshot(sql, parentId);
      expect(exactlyOnceProblems(snapshot, FAN_OUT)).toEqual([]);
      // The checks can fail: each way of losing or duplicating something is named.
      for (const broken of brokenCopies(snapshot)) {
        const problems = exactlyOnceProblems(broken.snapshot, FAN_OUT);
        expect(
          problems.some((problem) => problem.startsWith(broken.named)),
          `${broken.what} must be caught as "${broken.named}"; got ${JSON.stringify(problems)}`,
        ).toBe(true);
      }

      log("exactly once checked");
      await checkInvariants(fixture, parentId);
      log("invariants checked");
    } finally {
      await sql.end();
    }
  });
});
