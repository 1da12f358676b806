import { describe, expect, it } from "vitest";
import { CHECKER, fanOutScript, MESSAGE, RESEARCHER, ROOT, WRITER } from "../../test/support/live-scenario";
import {
  deepFreeze,
  EventScript,
  frameId,
  messageWire,
  registryEntryWire,
  replayFrames,
  snapshotLiveState,
  stateFromFrames,
  T0,
  threadWire,
  uuid,
} from "../../test/support/live-support";
import { getEntry } from "./persistent-map";
import { applyLiveEvent, applySseFrame, initialLiveState } from "./reducer";
import {
  selectChildIds,
  selectOrphanIds,
  selectRegistry,
  selectRegistryTotal,
  selectStreamingMessages,
  selectTelemetry,
  selectThread,
  selectTranscript,
  selectTreeRows,
} from "./selectors";
import { MAX_PROBLEMS } from "./state";

const ALL_EXPANDED = { defaultExpanded: true, toggled: new Set<string>() };

describe("a root stream with blocking and non-blocking children and a grandchild", () => {
  const script = fanOutScript();
  const state = stateFromFrames(ROOT, script.frames);
  const persisted = script.frames.filter((frame) => frame.id !== undefined);

  it("builds the tree in creation order", () => {
    expect(state.roots).toEqual([ROOT]);
    expect(selectChildIds(state, ROOT)).toEqual([RESEARCHER, WRITER]);
    expect(selectChildIds(state, RESEARCHER)).toEqual([CHECKER]);
    expect(selectChildIds(state, CHECKER)).toEqual([]);
  });

  it("keeps each thread's latest payload", () => {
    expect(selectThread(state, ROOT)).toMatchObject({ status: "idle", usage: { input_tokens: 200 } });
    expect(selectThread(state, RESEARCHER)).toMatchObject({
      status: "completed",
      parent_id: ROOT,
      depth: 1,
      result: "Tides are caused by the moon.",
    });
    expect(selectThread(state, CHECKER)).toMatchObject({
      status: "completed",
      depth: 2,
      agent_id: "fact_checker",
    });
    expect(selectThread(state, WRITER)).toMatchObject({ status: "running", name: "report-writer" });
  });

  it("keeps each parent's registry, with blocking and non-blocking entries", () => {
    expect(
      selectRegistry(state, ROOT).map((entry) => [entry.reference, entry.blocking, entry.status]),
    ).toEqual([
      [RESEARCHER, true, "completed"],
      [WRITER, false, "running"],
    ]);
    expect(selectRegistry(state, RESEARCHER).map((entry) => entry.threadStatus)).toEqual(["completed"]);
    expect(selectRegistry(state, WRITER)).toEqual([]);
  });

  it("keeps each transcript in seq order", () => {
    expect(selectTranscript(state, ROOT).map((message) => message.id)).toEqual([
      MESSAGE.rootQuestion,
      MESSAGE.rootSpawn,
      MESSAGE.rootResearchResult,
      MESSAGE.rootWriterStarted,
    ]);
    expect(selectTranscript(state, RESEARCHER).map((message) => message.seq)).toEqual([1, 2, 3, 4]);
    expect(selectTranscript(state, CHECKER).at(-1)?.content).toBe("All facts hold.");
  });

  it("keeps streamed text only for the message that is not persisted yet", () => {
    expect(selectStreamingMessages(state, WRITER)).toEqual([
      { messageId: MESSAGE.writerDraft, text: "Draft: the moon" },
    ]);
    for (const thread of [ROOT, RESEARCHER, CHECKER])
      expect(selectStreamingMessages(state, thread)).toEqual([]);
  });

  it("reads telemetry into per-thread facts", () => {
    expect(selectTelemetry(state, ROOT)).toMatchObject({
      step: { number: 1, side: "a" },
      model: "planner-model",
      lastLatencyMs: 820,
      lastTool: { name: "write_report", status: "success" },
      stop: null,
    });
    expect(selectTelemetry(state, CHECKER).stop).toEqual({ reason: "sessionStop", side: "a", at: T0 + 60 });
    expect(selectTelemetry(state, WRITER)).toMatchObject({
      model: "backup-model",
      modelErrors: 1,
      lastModelError: "rate limited",
      fallbacks: 1,
    });
  });

  it("remembers the last persisted event id for Last-Event-ID", () => {
    expect(state.lastEventId).toBe(Number(persisted.at(-1)?.id));
    expect(state.problems).toEqual([]);
  });

  it("never mutates the state it is given", () => {
    let current = deepFreeze(initialLiveState(ROOT));
    for (const frame of script.frames) current = deepFreeze(applySseFrame(current, frame));
    expect(snapshotLiveState(current)).toEqual(snapshotLiveState(state));
  });

  it("leaves what an event does not touch as the same objects", () => {
    const before = stateFromFrames(ROOT, script.frames.slice(0, -2));
    const message = new EventScript(state.lastEventId + 1).message(
      WRITER,
      messageWire({ id: MESSAGE.writerDraft, seq: 2, content: "Draft: the moon pulls." }),
    );
    const after = applySseFrame(before, message);
    expect(after.threads).toBe(before.threads);
    expect(after.registries).toBe(before.registries);
    expect(after.childrenByParent).toBe(before.childrenByParent);
    expect(after.telemetry).toBe(before.telemetry);
    expect(getEntry(after.transcripts, ROOT)).toBe(getEntry(before.transcripts, ROOT));
    expect(getEntry(after.transcripts, WRITER)).not.toBe(getEntry(before.transcripts, WRITER));
  });
});

describe("replays and duplicates", () => {
  const script = fanOutScript();
  const straight = stateFromFrames(ROOT, script.frames);

  it("ignores a whole stream delivered twice (answers the very same state)", () => {
    const persisted = script.frames.filter((frame) => frame.id !== undefined);
    expect(replayFrames(persisted, straight)).toBe(straight);
  });

  it("ignores what a reconnect resends from an older Last-Event-ID", () => {
    const persisted = script.frames.filter((frame) => frame.id !== undefined);
    const firstHalf = stateFromFrames(ROOT, persisted.slice(0, 20));
    const resumed = replayFrames(persisted.slice(8), firstHalf);
    const expected = stateFromFrames(ROOT, persisted);
    expect(snapshotLiveState(resumed)).toEqual(snapshotLiveState(expected));
  });

  it("ignores an event whose id is at or below the last one, even with other content", () => {
    const stale = {
      ...script.frames.find((frame) => frame.event === "thread")!,
      id: String(straight.lastEventId),
    };
    const rewritten = {
      ...stale,
      data: JSON.stringify(threadWire({ id: ROOT, status: "failed", updated_at: T0 + 999 })),
    };
    expect(applySseFrame(straight, rewritten)).toBe(straight);
  });

  it("does not roll a thread back to an older payload that comes without an id", () => {
    const old = threadWire({ id: ROOT, root_id: ROOT, agent_id: "coordinator", status: "queued" });
    const next = applySseFrame(straight, { event: "thread", data: JSON.stringify(old) });
    expect(selectThread(next, ROOT)?.status).toBe("idle");
    expect(next.statusCounts).toEqual(straight.statusCounts);
  });

  it("replaces an updated message in place instead of adding it twice", () => {
    const update = new EventScript(straight.lastEventId + 1).message(
      RESEARCHER,
      messageWire({ id: MESSAGE.researcherSpawn, seq: 2, content: "Let me check (edited by a hook)." }),
    );
    const next = applySseFrame(straight, update);
    const transcript = selectTranscript(next, RESEARCHER);
    expect(transcript.map((message) => message.id)).toEqual(
      selectTranscript(straight, RESEARCHER).map((message) => message.id),
    );
    expect(transcript[1]?.content).toBe("Let me check (edited by a hook).");
  });

  it("orders messages by seq whatever order they arrive in", () => {
    const thread = uuid("solo");
    const script = new EventScript();
    for (const seq of [3, 1, 4, 2]) script.message(thread, messageWire({ id: uuid(`solo-${seq}`), seq }));
    const state = stateFromFrames(thread, script.frames);
    expect(selectTranscript(state, thread).map((message) => message.seq)).toEqual([1, 2, 3, 4]);
  });
});

describe("registry events", () => {
  const parent = uuid("parent");
  const entry = (index: number, status = "running") =>
    registryEntryWire({
      reference: uuid(`child-${index}`),
      name: `child-${index}`,
      createdAt: T0 + index,
      status,
    });
  const references = (state: ReturnType<typeof initialLiveState>) =>
    selectRegistry(state, parent).map((item) => [item.name, item.status]);

  it("replaces the registry on a full event", () => {
    const script = new EventScript();
    script.registry(parent, [entry(1), entry(2)]);
    script.registry(parent, [entry(2, "completed"), entry(3)]);
    const state = stateFromFrames(parent, script.frames);
    expect(references(state)).toEqual([
      ["child-2", "completed"],
      ["child-3", "running"],
    ]);
    expect(selectRegistryTotal(state, parent)).toBe(2);
  });

  it("upserts by reference on a partial event and keeps the other entries", () => {
    const script = new EventScript();
    script.registry(parent, [entry(1), entry(2)]);
    script.registry(parent, [entry(2, "completed"), entry(150)], { partial: true, total: 150 });
    const state = stateFromFrames(parent, script.frames);
    expect(references(state)).toEqual([
      ["child-1", "running"],
      ["child-2", "completed"],
      ["child-150", "running"],
    ]);
    expect(selectRegistryTotal(state, parent)).toBe(150);
  });

  it("starts a registry from partial events alone and replaces it on the next full one", () => {
    const script = new EventScript();
    script.registry(parent, [entry(7)], { partial: true, total: 101 });
    const partialOnly = stateFromFrames(parent, script.frames);
    expect(references(partialOnly)).toEqual([["child-7", "running"]]);
    script.registry(parent, [entry(1)]);
    expect(references(stateFromFrames(parent, script.frames))).toEqual([["child-1", "running"]]);
  });
});

describe("token chunks", () => {
  const thread = uuid("chat");
  const reply = uuid("reply");
  const other = uuid("other-reply");
  const base = () => {
    const script = new EventScript();
    script.thread(threadWire({ id: thread, status: "running" }));
    script.chunk(thread, reply, "Hel");
    script.chunk(thread, other, "Side B ");
    script.chunk(thread, reply, "lo");
    return script;
  };

  it("accumulates text per message id", () => {
    const state = stateFromFrames(thread, base().frames);
    expect(selectStreamingMessages(state, thread)).toEqual([
      { messageId: reply, text: "Hello" },
      { messageId: other, text: "Side B " },
    ]);
  });

  it("hands over to the persisted message with the same id, leaving other streams alone", () => {
    const script = base();
    script.message(thread, messageWire({ id: reply, seq: 1, content: "Hello!" }));
    const state = stateFromFrames(thread, script.frames);
    expect(selectStreamingMessages(state, thread)).toEqual([{ messageId: other, text: "Side B " }]);
    expect(selectTranscript(state, thread).map((message) => message.content)).toEqual(["Hello!"]);
  });

  it("knows which side a stream speaks for from its first chunk, until its message is persisted", () => {
    const script = new EventScript();
    script.thread(threadWire({ id: thread, status: "running" }));
    script.chunk(thread, reply, "Good start. ", "b");
    script.chunk(thread, reply, "Make it punchier.");
    const streaming = stateFromFrames(thread, script.frames);
    expect(selectStreamingMessages(streaming, thread)).toEqual([
      { messageId: reply, text: "Good start. Make it punchier.", side: "b" },
    ]);
    script.message(thread, messageWire({ id: reply, seq: 1, content: "Good start. Make it punchier." }));
    const persisted = stateFromFrames(thread, script.frames);
    expect(selectStreamingMessages(persisted, thread)).toEqual([]);
    expect(persisted.streamSides).toEqual({});
  });

  it("ignores a chunk that arrives after its message was persisted", () => {
    const script = base();
    script.message(thread, messageWire({ id: reply, seq: 1, content: "Hello!" }));
    const settled = stateFromFrames(thread, script.frames);
    const late = applySseFrame(settled, {
      event: "message_chunk",
      data: JSON.stringify({ thread_id: thread, message_id: reply, chunk: "lo" }),
    });
    expect(late).toBe(settled);
  });

  it("drops leftover text when the thread settles without persisting it (a failed or stopped call)", () => {
    const script = base();
    script.thread(
      threadWire({ id: thread, status: "failed", updated_at: T0 + 5, failure: "Error: provider down" }),
    );
    expect(selectStreamingMessages(stateFromFrames(thread, script.frames), thread)).toEqual([]);
  });

  it("does not move the resume cursor", () => {
    const state = stateFromFrames(thread, base().frames);
    expect(state.lastEventId).toBe(1);
  });
});

describe("children that arrive before their parents", () => {
  const parent = uuid("late-parent");
  const older = uuid("older-child");
  const younger = uuid("younger-child");
  const childOf = (id: string, createdAt: number) =>
    threadWire({ id, parent_id: parent, root_id: ROOT, depth: 2, agent_id: "worker", created_at: createdAt });

  it("keeps a child whose parent is unknown and attaches it when the parent arrives", () => {
    const script = new EventScript(7);
    script.thread(threadWire({ id: ROOT, status: "running" }));
    script.thread(childOf(younger, T0 + 20));
    script.thread(childOf(older, T0 + 10));
    const before = stateFromFrames(ROOT, script.frames);
    expect(selectThread(before, younger)?.parent_id).toBe(parent);
    expect(selectOrphanIds(before).sort()).toEqual([older, younger].sort());
    expect(selectTreeRows(before, ALL_EXPANDED).map((row) => row.id)).toEqual([ROOT]);

    script.thread(threadWire({ id: parent, parent_id: ROOT, root_id: ROOT, depth: 1, created_at: T0 + 5 }));
    const after = stateFromFrames(ROOT, script.frames);
    expect(selectOrphanIds(after)).toEqual([]);
    expect(selectTreeRows(after, ALL_EXPANDED).map((row) => [row.id, row.depth])).toEqual([
      [ROOT, 0],
      [parent, 1],
      [older, 2],
      [younger, 2],
    ]);
  });

  it("builds the same tree whatever order id-less thread payloads arrive in", () => {
    const payloads = [
      threadWire({ id: ROOT }),
      threadWire({ id: parent, parent_id: ROOT, root_id: ROOT, depth: 1, created_at: T0 + 5 }),
      childOf(older, T0 + 10),
      childOf(younger, T0 + 20),
    ];
    const frames = (order: number[]) =>
      order.map((index) => ({ event: "thread", data: JSON.stringify(payloads[index]) }));
    const inOrder = stateFromFrames(ROOT, frames([0, 1, 2, 3]));
    const reversed = stateFromFrames(ROOT, frames([3, 2, 1, 0]));
    expect(snapshotLiveState(reversed)).toEqual(snapshotLiveState(inOrder));
    expect(selectChildIds(reversed, parent)).toEqual([older, younger]);
  });

  it("treats the stream's own thread as a root even when it has a parent (a subtree stream)", () => {
    const script = new EventScript();
    script.thread(threadWire({ id: parent, parent_id: ROOT, root_id: ROOT, depth: 1 }));
    script.thread(childOf(older, T0 + 10));
    const state = stateFromFrames(parent, script.frames);
    expect(state.roots).toEqual([parent]);
    expect(selectTreeRows(state, ALL_EXPANDED).map((row) => [row.id, row.depth])).toEqual([
      [parent, 0],
      [older, 1],
    ]);
    expect(selectOrphanIds(state)).toEqual([]);
  });
});

describe("malformed events", () => {
  it("records the problem, moves the resume cursor past it and changes nothing else", () => {
    const script = fanOutScript();
    const state = stateFromFrames(ROOT, script.frames);
    const bad = { event: "thread", id: String(state.lastEventId + 1), data: '{"id": 1}' };
    const next = applySseFrame(state, bad);
    expect(next.problems).toEqual([
      expect.objectContaining({ code: "invalid_payload", event: "thread", id: state.lastEventId + 1 }),
    ]);
    expect(next.lastEventId).toBe(state.lastEventId + 1);
    expect(next.threads).toBe(state.threads);
    expect(applySseFrame(next, bad)).toBe(next);
  });

  it("keeps only the latest problems", () => {
    let state = initialLiveState(ROOT);
    for (let id = 1; id <= MAX_PROBLEMS + 5; id++)
      state = applySseFrame(state, { event: "nope", id: String(id), data: "{}" });
    expect(state.problems).toHaveLength(MAX_PROBLEMS);
    expect(state.problems[0]?.id).toBe(6);
    expect(state.problems.at(-1)?.id).toBe(MAX_PROBLEMS + 5);
  });

  it("applies parsed events directly too, with the same id gate", () => {
    const thread = threadWire({ id: ROOT, status: "running" });
    const parsed = { type: "thread" as const, id: 3, thread: { ...thread, status: "running" as const } };
    const once = applyLiveEvent(initialLiveState(ROOT), parsed);
    expect(once.lastEventId).toBe(3);
    expect(applyLiveEvent(once, parsed)).toBe(once);
    expect(frameId({ event: "thread", data: "{}", id: "3" })).toBe(3);
  });
});
