import { describe, expect, it } from "vitest";
import { CHECKER, fanOutScript, RESEARCHER, ROOT, WRITER } from "../../test/support/live-scenario";
import {
  EventScript,
  registryEntryWire,
  stateFromFrames,
  T0,
  threadWire,
  uuid,
} from "../../test/support/live-support";
import { applySseFrame, initialLiveState } from "./reducer";
import {
  isExpanded,
  selectActiveThreadsByAgent,
  selectChildIds,
  selectOrphanIds,
  selectRegistry,
  selectRegistryEntry,
  selectRegistryTotal,
  selectStatusCounts,
  selectStreamingMessages,
  selectSubtreeUsage,
  selectThread,
  selectTimeRunning,
  selectTranscript,
  selectTreeRows,
} from "./selectors";

const script = fanOutScript();
const state = stateFromFrames(ROOT, script.frames);

/** The next persisted thread event on top of the scenario. */
function withThread(base: typeof state, thread: ReturnType<typeof threadWire>) {
  return applySseFrame(base, new EventScript(base.lastEventId + 1).thread(thread));
}

describe("selectSubtreeUsage", () => {
  it("rolls up tokens and cost over a thread and all its descendants", () => {
    const usage = selectSubtreeUsage(state, ROOT);
    expect(usage.input_tokens).toBe(200 + 80 + 30);
    expect(usage.output_tokens).toBe(80 + 20 + 10);
    expect(usage.cost_usd).toBeCloseTo(0.004 + 0.001 + 0.0005, 10);
    expect(selectSubtreeUsage(state, RESEARCHER)).toMatchObject({ input_tokens: 110, output_tokens: 30 });
    expect(selectSubtreeUsage(state, CHECKER)).toMatchObject({ input_tokens: 30, output_tokens: 10 });
  });

  it("answers zero for a thread it has not seen", () => {
    expect(selectSubtreeUsage(state, uuid("nobody"))).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
    });
  });
});

describe("live counts", () => {
  it("counts threads by status", () => {
    expect(selectStatusCounts(state)).toEqual({
      idle: 1,
      queued: 0,
      running: 1,
      waiting_approval: 0,
      completed: 2,
      failed: 0,
      stopped: 0,
      terminated: 0,
    });
  });

  it("counts queued and running threads per agent, following status changes", () => {
    expect(selectActiveThreadsByAgent(state)).toEqual({ writer: 1 });
    const queuedAgain = withThread(state, threadWire({ id: ROOT, status: "queued", updated_at: T0 + 200 }));
    expect(selectActiveThreadsByAgent(queuedAgain)).toEqual({ writer: 1, coordinator: 1 });
    const writerDone = withThread(
      queuedAgain,
      threadWire({
        id: WRITER,
        parent_id: ROOT,
        root_id: ROOT,
        depth: 1,
        agent_id: "writer",
        status: "completed",
        updated_at: T0 + 300,
      }),
    );
    expect(selectActiveThreadsByAgent(writerDone)).toEqual({ coordinator: 1 });
    expect(selectStatusCounts(writerDone)).toMatchObject({ idle: 0, queued: 1, running: 0, completed: 3 });
  });

  it("moves a running thread's count to its new agent after a handoff", () => {
    const handedOff = withThread(
      state,
      threadWire({
        id: WRITER,
        parent_id: ROOT,
        root_id: ROOT,
        depth: 1,
        agent_id: "editor",
        status: "running",
        updated_at: T0 + 300,
      }),
    );
    expect(selectActiveThreadsByAgent(handedOff)).toEqual({ editor: 1 });
    expect(selectStatusCounts(handedOff).running).toBe(1);
  });
});

describe("selectTreeRows", () => {
  it("answers the same rows to the tree and the timeline until the tree or the expansion changes", () => {
    const expansion = { defaultExpanded: true, toggled: new Set<string>() };
    const rows = selectTreeRows(state, expansion);
    expect(selectTreeRows(state, expansion)).toBe(rows);
    expect(selectTreeRows({ ...state }, expansion)).toBe(rows);
    expect(selectTreeRows({ ...state, roots: [...state.roots] }, expansion)).not.toBe(rows);
    expect(selectTreeRows(state, expansion)).not.toBe(rows);
    const again = selectTreeRows(state, expansion);
    expect(selectTreeRows({ ...state, childrenByParent: { ...state.childrenByParent } }, expansion)).not.toBe(
      again,
    );
    const other = { defaultExpanded: true, toggled: new Set([RESEARCHER]) };
    expect(selectTreeRows(state, other)).not.toBe(rows);
    expect(selectTreeRows(state, other).map((row) => row.id)).not.toContain(CHECKER);
    const updated = withThread(
      state,
      threadWire({
        id: WRITER,
        parent_id: ROOT,
        root_id: ROOT,
        depth: 1,
        status: "completed",
        updated_at: T0 + 9_000_000,
      }),
    );
    const after = selectTreeRows(updated, expansion);
    expect(after).not.toBe(rows);
    expect(after.find((row) => row.id === WRITER)?.thread.status).toBe("completed");
  });

  const rows = (expansion: { defaultExpanded: boolean; toggled: Set<string> }) =>
    selectTreeRows(state, expansion).map((row) => [row.id, row.depth, row.hasChildren, row.expanded]);

  it("lists every thread depth-first in creation order when all are expanded", () => {
    expect(rows({ defaultExpanded: true, toggled: new Set() })).toEqual([
      [ROOT, 0, true, true],
      [RESEARCHER, 1, true, true],
      [CHECKER, 2, false, true],
      [WRITER, 1, false, true],
    ]);
  });

  it("hides the descendants of a collapsed thread", () => {
    expect(rows({ defaultExpanded: true, toggled: new Set([RESEARCHER]) })).toEqual([
      [ROOT, 0, true, true],
      [RESEARCHER, 1, true, false],
      [WRITER, 1, false, true],
    ]);
  });

  it("shows only what was opened when rows start collapsed", () => {
    expect(rows({ defaultExpanded: false, toggled: new Set() })).toEqual([[ROOT, 0, true, false]]);
    expect(rows({ defaultExpanded: false, toggled: new Set([ROOT]) })).toEqual([
      [ROOT, 0, true, true],
      [RESEARCHER, 1, true, false],
      [WRITER, 1, false, false],
    ]);
    expect(isExpanded({ defaultExpanded: false, toggled: new Set([ROOT]) }, ROOT)).toBe(true);
  });

  it("carries each row's thread payload", () => {
    const [root] = selectTreeRows(state, { defaultExpanded: true, toggled: new Set() });
    expect(root?.thread.status).toBe("idle");
  });
});

describe("selectTimeRunning", () => {
  const now = T0 + 1_000;

  it("counts up to now while a thread is queued or running", () => {
    expect(selectTimeRunning(state, WRITER, now)).toBe(now - (T0 + 100));
  });

  it("stops at the last update once a thread is idle or has ended", () => {
    expect(selectTimeRunning(state, RESEARCHER, now)).toBe(70 - 30);
    expect(selectTimeRunning(state, ROOT, now)).toBe(110);
  });

  it("ends at finished_at, not at a later update of a settled thread (issue 41: after Terminate)", () => {
    // A child that worked 3 s, then was terminated with its tree 30 s later: updated_at moved, finished_at did not.
    const terminated = withThread(
      state,
      threadWire({
        id: CHECKER,
        parent_id: RESEARCHER,
        root_id: ROOT,
        depth: 2,
        status: "terminated",
        created_at: T0,
        finished_at: T0 + 3_000_000,
        updated_at: T0 + 33_000_000,
      }),
    );
    expect(selectTimeRunning(terminated, CHECKER, T0 + 60_000_000)).toBe(3_000_000);
  });

  it("answers null for a thread it has not seen", () => {
    expect(selectTimeRunning(state, uuid("nobody"), now)).toBeNull();
  });
});

describe("lookups of what is not there", () => {
  it("answers empty values for an unknown thread or parent", () => {
    const empty = initialLiveState(ROOT);
    const nobody = uuid("nobody");
    expect(selectThread(empty, nobody)).toBeUndefined();
    expect(selectChildIds(empty, nobody)).toEqual([]);
    expect(selectTranscript(empty, nobody)).toEqual([]);
    expect(selectStreamingMessages(empty, nobody)).toEqual([]);
    expect(selectRegistry(empty, nobody)).toEqual([]);
    expect(selectRegistryEntry(empty, nobody, nobody)).toBeUndefined();
    expect(selectRegistryTotal(empty, nobody)).toBe(0);
    expect(selectOrphanIds(empty)).toEqual([]);
  });
});

describe("selectRegistry", () => {
  it("orders entries by creation time, then reference, and finds one entry directly", () => {
    const parent = uuid("registry-parent");
    const entry = (reference: string, createdAt: number) =>
      registryEntryWire({ reference, name: reference, createdAt });
    const script = new EventScript();
    script.registry(parent, [
      entry("c", T0 + 1),
      entry("b", T0),
      entry("d", T0),
      entry("a", T0 + 1),
      entry("b2", T0),
    ]);
    const registryState = stateFromFrames(parent, script.frames);
    expect(selectRegistry(registryState, parent).map((item) => item.reference)).toEqual([
      "b",
      "b2",
      "d",
      "a",
      "c",
    ]);
    expect(selectRegistryEntry(registryState, parent, "d")?.createdAt).toBe(T0);
    // Many entries of one instant: the order is the references', whatever order the map keeps them in.
    const many = Array.from({ length: 40 }, (_, index) => `ref-${String(index).padStart(2, "0")}`);
    const manyScript = new EventScript();
    manyScript.registry(
      parent,
      [...many].reverse().map((reference) => entry(reference, T0)),
    );
    const manyState = stateFromFrames(parent, manyScript.frames);
    expect(selectRegistry(manyState, parent).map((item) => item.reference)).toEqual(many);
    expect(selectRegistryEntry(registryState, parent, "e")).toBeUndefined();
  });
});

describe("selectStreamingMessages", () => {
  it("names the side of a stream only when the server said it", () => {
    const thread = uuid("streaming");
    const script = new EventScript();
    script.chunk(thread, "m1", "Hel", "b");
    script.chunk(thread, "m2", "Wor");
    script.chunk(thread, "m1", "lo");
    expect(selectStreamingMessages(stateFromFrames(thread, script.frames), thread)).toStrictEqual([
      { messageId: "m1", text: "Hello", side: "b" },
      { messageId: "m2", text: "Wor" },
    ]);
  });
});

describe("selectOrphanIds and selectTimeRunning edges", () => {
  it("never counts a root or the stream's own thread as an orphan", () => {
    const own = uuid("own");
    const script = new EventScript();
    script.thread(threadWire({ id: own, parent_id: uuid("far-parent") }));
    script.thread(threadWire({ id: uuid("top") }));
    script.thread(threadWire({ id: uuid("lost"), parent_id: uuid("missing") }));
    expect(selectOrphanIds(stateFromFrames(own, script.frames))).toEqual([uuid("lost")]);
  });

  it("never answers a negative time, even when the clock is behind the thread", () => {
    const running = withThread(
      state,
      threadWire({ id: uuid("early"), status: "running", created_at: T0 + 500 }),
    );
    expect(selectTimeRunning(running, uuid("early"), T0)).toBe(0);
    expect(selectTimeRunning(running, uuid("early"), T0 + 700)).toBe(200);
    const queued = withThread(state, threadWire({ id: uuid("queued"), status: "queued", created_at: T0 }));
    expect(selectTimeRunning(queued, uuid("queued"), T0 + 50)).toBe(50);
  });
});
