// Pins the reducer's edge cases: sibling order on equal creation times, status and agent counters
// across every transition, registry totals, streamed text on settling, and the resume cursor of problems.
import { describe, expect, it } from "vitest";
import {
  EventScript,
  messageWire,
  registryEntryWire,
  stateFromFrames,
  T0,
  threadWire,
  uuid,
} from "../../test/support/live-support";
import { getEntry } from "./persistent-map";
import { applyLiveEvent, applyLiveEvents, initialLiveState, recordProblem } from "./reducer";
import {
  selectChildIds,
  selectRegistryTotal,
  selectStreamingMessages,
  selectTranscript,
  selectTreeRows,
} from "./selectors";
import { EMPTY_STATUS_COUNTS } from "./state";

const ROOT = uuid("edge-root");
const PARENT = uuid("edge-parent");

function threadEvent(id: number | null, overrides: Parameters<typeof threadWire>[0]) {
  const thread = threadWire(overrides);
  return { type: "thread" as const, id, thread: thread as never };
}

describe("sibling order", () => {
  it("orders children created at the same time by id, whatever order they arrive in", () => {
    const ids = ["c", "a", "d", "b"].map((label) => `${PARENT}-${label}`);
    const child = (id: string) => threadEvent(null, { id, parent_id: PARENT, root_id: ROOT, created_at: T0 });
    const sorted = [...ids].sort();
    for (const order of [ids, [...ids].reverse(), sorted]) {
      const state = applyLiveEvents(initialLiveState(ROOT), order.map(child));
      expect(selectChildIds(state, PARENT)).toEqual(sorted);
    }
  });

  it("orders roots by creation time, then id", () => {
    const roots = [
      threadEvent(null, { id: "r-b", created_at: T0 + 1 }),
      threadEvent(null, { id: "r-c", created_at: T0 }),
      threadEvent(null, { id: "r-a", created_at: T0 + 1 }),
      threadEvent(null, { id: "r-0", created_at: T0 + 2 }),
    ];
    expect(applyLiveEvents(initialLiveState(ROOT), roots).roots).toEqual(["r-c", "r-a", "r-b", "r-0"]);
  });

  it("places a thread once: an update does not list it again", () => {
    const first = threadEvent(1, { id: "x", parent_id: PARENT, status: "queued" });
    const update = threadEvent(2, { id: "x", parent_id: PARENT, status: "running", updated_at: T0 + 1 });
    const state = applyLiveEvents(initialLiveState(ROOT), [first, update]);
    expect(selectChildIds(state, PARENT)).toEqual(["x"]);
    expect(getEntry(state.threads, "x")?.status).toBe("running");
  });
});

describe("messages and roots", () => {
  it("adds a message event to its thread's transcript", () => {
    const message = messageWire({ id: uuid("edge-message"), seq: 1 });
    const state = applyLiveEvent(initialLiveState(ROOT), {
      type: "message",
      id: 1,
      threadId: ROOT,
      message: message as never,
    });
    expect(selectTranscript(state, ROOT).map((item) => item.id)).toEqual([message.id]);
  });

  it("lists several roots' trees in creation order, each with its children", () => {
    const events = [
      threadEvent(null, { id: "r-b", created_at: T0 + 1 }),
      threadEvent(null, { id: "r-a", created_at: T0 }),
      threadEvent(null, { id: "r-a-child", parent_id: "r-a", root_id: "r-a", created_at: T0 + 2 }),
    ];
    const rows = selectTreeRows(applyLiveEvents(initialLiveState(ROOT), events), {
      defaultExpanded: true,
      toggled: new Set<string>(),
    });
    expect(rows.map((row) => [row.id, row.depth])).toEqual([
      ["r-a", 0],
      ["r-a-child", 1],
      ["r-b", 0],
    ]);
  });
});

describe("status and agent counters", () => {
  it("moves a thread's count from status to status, and per agent only while queued or running", () => {
    const step = (id: number, status: string, agent = "worker", at = T0 + id) =>
      threadEvent(id, { id: "t", status, agent_id: agent, updated_at: at });
    let state = applyLiveEvent(initialLiveState(ROOT), step(1, "queued"));
    expect(state.statusCounts).toEqual({ ...EMPTY_STATUS_COUNTS, queued: 1 });
    expect(state.activeThreadsByAgent).toEqual({ worker: 1 });
    const queued = state;
    state = applyLiveEvent(state, step(2, "running"));
    expect(state.statusCounts).toEqual({ ...EMPTY_STATUS_COUNTS, running: 1 });
    // Still active with the same agent: the counters are the same object (no re-render of the tiles).
    expect(state.activeThreadsByAgent).toBe(queued.activeThreadsByAgent);
    state = applyLiveEvent(state, step(3, "running", "writer"));
    expect(state.activeThreadsByAgent).toEqual({ writer: 1 });
    state = applyLiveEvent(state, step(4, "idle", "writer"));
    expect(state.statusCounts).toEqual({ ...EMPTY_STATUS_COUNTS, idle: 1 });
    expect(state.activeThreadsByAgent).toEqual({});
    const idle = state;
    state = applyLiveEvent(state, step(5, "idle", "editor"));
    expect(state.activeThreadsByAgent).toBe(idle.activeThreadsByAgent);
    expect(state.statusCounts).toBe(idle.statusCounts);
    state = applyLiveEvent(state, step(6, "completed", "editor"));
    expect(state.statusCounts).toEqual({ ...EMPTY_STATUS_COUNTS, completed: 1 });
  });

  it("keeps counting the other active threads of an agent when one stops", () => {
    const events = [
      threadEvent(1, { id: "a", status: "running", agent_id: "worker" }),
      threadEvent(2, { id: "b", status: "queued", agent_id: "worker" }),
      threadEvent(3, { id: "a", status: "completed", agent_id: "worker", updated_at: T0 + 3 }),
    ];
    const state = applyLiveEvents(initialLiveState(ROOT), events);
    expect(state.activeThreadsByAgent).toEqual({ worker: 1 });
    expect(state.statusCounts).toEqual({ ...EMPTY_STATUS_COUNTS, queued: 1, completed: 1 });
  });

  it("takes a payload as new as the one it holds, not an older one", () => {
    const held = threadEvent(null, { id: "t", status: "running", updated_at: T0 + 5 });
    const same = threadEvent(null, { id: "t", status: "idle", updated_at: T0 + 5 });
    const older = threadEvent(null, { id: "t", status: "queued", updated_at: T0 + 4 });
    const state = applyLiveEvents(initialLiveState(ROOT), [held, same]);
    expect(getEntry(state.threads, "t")?.status).toBe("idle");
    expect(applyLiveEvent(state, older)).toBe(state);
  });
});

describe("streamed text when a thread settles", () => {
  const chunk = (threadId: string, messageId: string) => ({
    type: "message_chunk" as const,
    id: null,
    threadId,
    messageId,
    chunk: "partial",
  });

  it.each(["completed", "failed", "stopped", "terminated"])(
    "drops it when the thread becomes %s",
    (status) => {
      const state = applyLiveEvents(initialLiveState(ROOT), [
        threadEvent(1, { id: "t", status: "running" }),
        chunk("t", "m1"),
        chunk("other", "m2"),
        threadEvent(2, { id: "t", status, updated_at: T0 + 1 }),
      ]);
      expect(selectStreamingMessages(state, "t")).toEqual([]);
      expect(selectStreamingMessages(state, "other")).toEqual([{ messageId: "m2", text: "partial" }]);
    },
  );

  it.each(["queued", "running", "idle", "waiting_approval"])("keeps it while the thread is %s", (status) => {
    const before = applyLiveEvents(initialLiveState(ROOT), [
      threadEvent(1, { id: "t", status: "running" }),
      chunk("t", "m1"),
    ]);
    const state = applyLiveEvent(before, threadEvent(2, { id: "t", status, updated_at: T0 + 1 }));
    expect(selectStreamingMessages(state, "t")).toEqual([{ messageId: "m1", text: "partial" }]);
    expect(state.streaming).toBe(before.streaming);
  });

  it("adds no stream for a thread that settles without one", () => {
    const state = applyLiveEvent(initialLiveState(ROOT), threadEvent(1, { id: "t", status: "completed" }));
    expect(state.streaming).toBe(initialLiveState(ROOT).streaming);
  });
});

describe("registry totals", () => {
  const entries = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      registryEntryWire({ reference: uuid(`r-${index}`), name: `r-${index}`, createdAt: T0 + index }),
    );

  it("counts what a partial event announces, or the entries seen when that is more", () => {
    const total = (options: { partial?: boolean; total?: number }, count = 2) => {
      const script = new EventScript();
      script.registry(PARENT, entries(count), options);
      return selectRegistryTotal(stateFromFrames(ROOT, script.frames), PARENT);
    };
    expect(total({ partial: true, total: 120 })).toBe(120);
    expect(total({ partial: true, total: 1 })).toBe(2);
    expect(total({ partial: true })).toBe(2);
    expect(total({ partial: false, total: 120 }, 3)).toBe(3);
  });
});

describe("problems", () => {
  const problem = (id: number | null) => ({
    code: "unknown_event" as const,
    event: "nope",
    id,
    message: "m",
  });

  it("keeps the resume cursor for a problem without an id, and ignores one at or below it", () => {
    const at5 = recordProblem(initialLiveState(ROOT), problem(5));
    expect(at5.lastEventId).toBe(5);
    const idless = recordProblem(at5, problem(null));
    expect(idless.lastEventId).toBe(5);
    expect(idless.problems).toEqual([problem(5), problem(null)]);
    expect(recordProblem(idless, problem(5))).toBe(idless);
    expect(recordProblem(idless, problem(4))).toBe(idless);
    expect(recordProblem(idless, problem(6)).problems).toHaveLength(3);
  });

  it("applies an id-less event without moving the cursor, and one above it", () => {
    const at5 = recordProblem(initialLiveState(ROOT), problem(5));
    expect(applyLiveEvent(at5, threadEvent(null, { id: "t" })).lastEventId).toBe(5);
    expect(applyLiveEvent(at5, threadEvent(6, { id: "t" })).lastEventId).toBe(6);
    expect(applyLiveEvent(at5, threadEvent(5, { id: "t" }))).toBe(at5);
  });
});
