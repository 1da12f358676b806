// Exactly once, whatever crashes (issue: subagents): the server SIGKILLs itself at step boundaries of
// parents and children (TANDEM_CRASH_AT), restarts, and every child must end exactly once with
// exactly one report reaching its parent, no child spawned or fed twice, no call answered twice.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { assetBundle, resultText } from "../support/subagent-bundles";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";
import { checkInvariants } from "./invariants";

// Short leases so the killed server's threads are reclaimed quickly after the restart.
// A short hook time limit too: the poll's lost-wake-up grace is the longer of 2 leases and it + 1 s.
const fixture = testServerForFile({ TANDEM_LEASE_MS: "1500", TANDEM_HOOK_TIMEOUT_MS: "1000" });
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

// Postgres only (the fault suite's setup insists): PGlite is not hardened against a hard kill mid-write.

type RegistryEntry = { reference: string; status: string };

async function registry(threadId: string): Promise<RegistryEntry[]> {
  return (await api<{ subagents: RegistryEntry[] }>("GET", `/api/threads/${threadId}/subagents`)).body
    .subagents;
}

const FAN_OUT = 3;

/**
 * More children than a small registry holds (FULL_REGISTRY_EVENT_LIMIT): one-off children spawned by
 * the running process then report from what it remembers of the spawn (the one-off path of reportToParent).
 */
const WIDE_FAN_OUT = 24;

function fanOutBundle(blocking: boolean, fanOut = FAN_OUT) {
  const calls = Array.from({ length: fanOut }, (_, index) => ({
    name: "asset_subagent",
    args: { task: `task ${index + 1}` },
  }));
  return assetBundle({
    config: { blocking, initUserMessageProperty: "task" },
    orchestratorScript: [
      { toolCalls: calls },
      { text: "started" },
      ...Array.from({ length: fanOut + 1 }, () => ({ text: "noted" })),
    ],
    workerScript: [{ text: "Draft: {{input}}", delayMs: 50 }],
  });
}

const reportsBy = (messages: ApiMessage[]) => {
  const counts = new Map<string, number>();
  for (const message of messages) {
    const subagent = (message as ApiMessage & { subagent_id: string | null }).subagent_id;
    if (message.silent && subagent && message.content?.startsWith("Subagent (reference:")) {
      counts.set(subagent, (counts.get(subagent) ?? 0) + 1);
    }
  }
  return counts;
};

async function settled(parentId: string, blocking: boolean, fanOut = FAN_OUT): Promise<void> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const entries = await registry(parentId).catch(() => []);
    const parent = await api<{ thread: { status: string } }>("GET", `/api/threads/${parentId}`).catch(
      () => null,
    );
    const reports = reportsBy(await messagesOf(parentId, true).catch(() => []));
    const done =
      entries.length === fanOut &&
      entries.every((entry) => entry.status === "completed") &&
      parent?.body.thread.status === "idle" &&
      (blocking || reports.size === fanOut);
    if (done) return;
    if (Date.now() > deadline) {
      throw new Error(
        `not settled: ${JSON.stringify({ entries, parent: parent?.body, reports: [...reports] })}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function checkExactlyOnce(parentId: string, blocking: boolean, fanOut = FAN_OUT): Promise<void> {
  const entries = await registry(parentId);
  expect(entries).toHaveLength(fanOut);
  const messages = await messagesOf(parentId, true);
  const reports = reportsBy(messages);
  const results = messages.filter((message) => message.role === "tool" && message.name === "asset_subagent");
  expect(results).toHaveLength(fanOut);
  expect(new Set(results.map((message) => message.tool_call_id)).size).toBe(fanOut);
  expect(results.map((message) => message.tool_status)).toEqual(Array(fanOut).fill("success"));
  // Each call is answered about its own child: one child per call, none spawned twice.
  const referenced = results.map((message) => /reference: ([0-9a-f-]{36})/.exec(message.content ?? "")?.[1]);
  expect(new Set(referenced)).toEqual(new Set(entries.map((entry) => entry.reference)));
  for (const entry of entries) {
    const child = await waitFor(entry.reference, ["completed"]);
    expect(child.result).toMatch(/^Approved Draft: task \d+$/);
    // Fed once: one first input; ended once: one sessionStop call answered.
    const childMessages = await messagesOf(entry.reference, true);
    expect(childMessages.filter((message) => message.side === null && message.role === "user")).toHaveLength(
      1,
    );
    expect(
      childMessages.filter((message) => message.role === "tool" && message.name === "approve_asset"),
    ).toHaveLength(1);
    if (blocking) {
      expect(reports.get(entry.reference) ?? 0).toBe(0);
      expect(
        results.filter((message) => message.content === resultText(entry.reference, child.result ?? "")),
      ).toHaveLength(1);
    } else {
      expect(reports.get(entry.reference)).toBe(1);
    }
  }
}

describe("subagents survive a crash at every step boundary", () => {
  const scenarios: { crashAt: string; blocking: boolean; what: string }[] = [
    {
      crashAt: "before_parent_wake@asset_subagent#2",
      blocking: false,
      what: "after a report committed, before the parent is woken",
    },
    {
      crashAt: "before_tool_commit@orchestrator#2",
      blocking: false,
      what: "between a spawn and its tool result",
    },
    {
      crashAt: "before_tool_commit@orchestrator#1",
      blocking: true,
      what: "between a blocking spawn and the wait",
    },
    {
      crashAt: "after_tool_commit@orchestrator#1",
      blocking: false,
      what: "right after the spawns and their tool results committed",
    },
    {
      crashAt: "after_tool_commit@asset_subagent#2",
      blocking: false,
      what: "right after a child's tool result committed",
    },
    {
      crashAt: "before_model_call@asset_subagent#4",
      blocking: false,
      what: "before a child's last model call",
    },
    {
      crashAt: "after_model_call@asset_subagent#4",
      blocking: false,
      what: "after a child's last model call",
    },
    {
      crashAt: "before_terminal_commit@asset_subagent",
      blocking: false,
      what: "before a child's terminal commit",
    },
    {
      crashAt: "after_terminal_commit@asset_subagent",
      blocking: false,
      what: "after a child's terminal commit",
    },
    { crashAt: "before_model_call@orchestrator#2", blocking: false, what: "while the parent is busy" },
    {
      crashAt: "after_model_call@orchestrator#3",
      blocking: false,
      what: "while the parent takes in reports",
    },
    {
      crashAt: "before_terminal_commit@asset_subagent",
      blocking: true,
      what: "before a blocking child's terminal commit",
    },
    {
      crashAt: "after_terminal_commit@asset_subagent#2",
      blocking: true,
      what: "after a blocking child's terminal commit",
    },
  ];
  for (const scenario of scenarios) {
    it(`${scenario.what} (${scenario.crashAt}, ${scenario.blocking ? "blocking" : "non-blocking"})`, async () => {
      await fixture.server.restart({ TANDEM_CRASH_AT: scenario.crashAt });
      const projectId = await projectWith(fanOutBundle(scenario.blocking));
      const parentId = await startThread(projectId, "orchestrator", "make three assets");
      await fixture.server.exited(30_000);
      expect(fixture.server.output()).toContain("crash point");
      await fixture.server.restart({ TANDEM_CRASH_AT: "" });
      await settled(parentId, scenario.blocking);
      await checkExactlyOnce(parentId, scenario.blocking);
      await checkInvariants(fixture, parentId);
    });
  }
});

describe("a wide fan-out whose children report from the spawn's memory survives a crash", () => {
  const scenarios = [
    { crashAt: "before_terminal_commit@asset_subagent#6", what: "before a child's terminal commit" },
    { crashAt: "after_terminal_commit@asset_subagent#6", what: "after a child's terminal commit" },
    { crashAt: "before_parent_wake@asset_subagent#6", what: "after a report committed, before the wake" },
  ];
  for (const scenario of scenarios) {
    it(`${scenario.what} (${scenario.crashAt}, ${WIDE_FAN_OUT} children)`, async () => {
      await fixture.server.restart({ TANDEM_CRASH_AT: scenario.crashAt });
      const projectId = await projectWith(fanOutBundle(false, WIDE_FAN_OUT));
      const parentId = await startThread(projectId, "orchestrator", "make many assets");
      await fixture.server.exited(30_000);
      expect(fixture.server.output()).toContain("crash point");
      await fixture.server.restart({ TANDEM_CRASH_AT: "" });
      await settled(parentId, false, WIDE_FAN_OUT);
      await checkExactlyOnce(parentId, false, WIDE_FAN_OUT);
      await checkInvariants(fixture, parentId);
    });
  }
});

describe("a graceful restart in the middle of a fan-out", () => {
  it("hands every thread of the tree back and finishes with every report exactly once", async () => {
    await fixture.server.restart({ TANDEM_CRASH_AT: "" });
    const projectId = await projectWith(fanOutBundle(false));
    const parentId = await startThread(projectId, "orchestrator", "make three assets");
    for (;;) {
      const entries = await registry(parentId);
      if (entries.length === FAN_OUT) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await fixture.server.restart();
    await settled(parentId, false);
    await checkExactlyOnce(parentId, false);
    await checkInvariants(fixture, parentId);
  });
});
