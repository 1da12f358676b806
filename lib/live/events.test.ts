import { describe, expect, it } from "vitest";
import { messageWire, registryEntryWire, threadWire, uuid } from "../../test/support/live-support";
import { parseLiveEvent, parseSseFrame } from "./events";

const THREAD = uuid("thread");

describe("parseSseFrame", () => {
  it("reads a thread event as the server sends it, dropping fields the live view does not use", () => {
    const wire = { ...threadWire({ id: THREAD, status: "running" }), lease_owner: "worker-7" };
    const parsed = parseSseFrame({ event: "thread", id: "42", data: JSON.stringify(wire) });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok || parsed.event.type !== "thread") throw new Error("expected a thread event");
    expect(parsed.event.id).toBe(42);
    expect(parsed.event.thread.status).toBe("running");
    expect(parsed.event.thread).not.toHaveProperty("lease_owner");
    expect(parsed.event.thread).not.toHaveProperty("children");
  });

  it("reads a message event with its JSON-encoded tool calls and attachments", () => {
    const message = messageWire({
      id: uuid("m1"),
      seq: 7,
      tool_calls: '[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]',
      attachments: [
        {
          id: "a1",
          type: "file",
          path: "/attachments/a.txt",
          name: "a.txt",
          mimeType: "text/plain",
          size: 3,
        },
      ],
    });
    const parsed = parseSseFrame({
      event: "message",
      id: "3",
      data: JSON.stringify({ thread_id: THREAD, message }),
    });
    expect(parsed).toMatchObject({
      ok: true,
      event: { type: "message", threadId: THREAD, message: { seq: 7 } },
    });
  });

  it("reads a chunk without an id and never gives it one", () => {
    const data = JSON.stringify({ thread_id: THREAD, message_id: uuid("m2"), chunk: "Hel" });
    expect(parseSseFrame({ event: "message_chunk", data })).toMatchObject({
      ok: true,
      event: { type: "message_chunk", id: null, chunk: "Hel" },
    });
    expect(parseSseFrame({ event: "message_chunk", id: "9", data })).toMatchObject({
      ok: true,
      event: { id: null },
    });
  });

  it("treats a registry event without `partial` (the API.md shape) as a full registry", () => {
    const data = JSON.stringify({
      thread_id: THREAD,
      children: [registryEntryWire({ reference: uuid("c"), name: "c" })],
    });
    expect(parseSseFrame({ event: "registry", id: "5", data })).toMatchObject({
      ok: true,
      event: { type: "registry", partial: false },
    });
  });

  it("keeps the total of a partial registry event", () => {
    const data = JSON.stringify({ thread_id: THREAD, children: [], partial: true, total: 140 });
    expect(parseSseFrame({ event: "registry", id: "5", data })).toMatchObject({
      ok: true,
      event: { partial: true, total: 140 },
    });
  });

  it("reads known telemetry and keeps unknown kinds as `other` instead of failing", () => {
    const handoff = {
      thread_id: THREAD,
      type: "agent_handoff",
      new_agent_id: "billing",
      new_agent_title: null,
      timestamp: 5,
    };
    expect(parseLiveEvent("telemetry", 8, handoff)).toMatchObject({
      ok: true,
      event: { timestamp: 5, telemetry: { type: "agent_handoff", new_agent_id: "billing" } },
    });
    const future = { thread_id: THREAD, type: "cache_hit", timestamp: 6, ratio: 0.5 };
    expect(parseLiveEvent("telemetry", 9, future)).toMatchObject({
      ok: true,
      event: { telemetry: { type: "other", name: "cache_hit" } },
    });
  });

  it.each([
    ["an id that is not a number", { event: "thread", id: "abc", data: "{}" }, "invalid_id"],
    ["data that is not JSON", { event: "thread", id: "1", data: "{not json" }, "invalid_json"],
    ["an event name it does not know", { event: "presence", id: "1", data: "{}" }, "unknown_event"],
    [
      "a thread with a status outside the API's list",
      { event: "thread", id: "1", data: JSON.stringify(threadWire({ id: THREAD, status: "sleeping" })) },
      "invalid_payload",
    ],
    [
      "a message without its seq",
      { event: "message", id: "1", data: JSON.stringify({ thread_id: THREAD, message: { id: "m" } }) },
      "invalid_payload",
    ],
    [
      "a known telemetry kind missing a field it needs",
      {
        event: "telemetry",
        id: "1",
        data: JSON.stringify({ thread_id: THREAD, type: "step_started", timestamp: 1 }),
      },
      "invalid_payload",
    ],
  ])("reports %s as an error value", (_label, frame, code) => {
    const parsed = parseSseFrame(frame);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.code).toBe(code);
    expect(parsed.error.event).toBe(frame.event);
    expect(parsed.error.message.length).toBeGreaterThan(0);
  });

  it("names the offending field in a payload error", () => {
    const data = JSON.stringify({ ...threadWire({ id: THREAD }), usage: { input_tokens: "many" } });
    const parsed = parseSseFrame({ event: "thread", id: "1", data });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain("usage.input_tokens");
  });
});

describe("parseSseFrame errors say exactly what is wrong", () => {
  it.each([
    [undefined, null],
    [null, null],
    ["", null],
    ["  ", null],
    ["0", 0],
    [" 17 ", 17],
  ])("reads the id %j as %j", (id, expected) => {
    const data = JSON.stringify({ thread_id: THREAD, children: [] });
    expect(parseSseFrame({ event: "registry", id, data })).toMatchObject({
      ok: true,
      event: { id: expected },
    });
  });

  it.each(["-1", "1.5", "1e3", "7a", "a7"])("refuses the id %j", (id) => {
    expect(parseSseFrame({ event: "thread", id, data: "{}" })).toStrictEqual({
      ok: false,
      error: {
        code: "invalid_id",
        event: "thread",
        id: null,
        message: `Event id ${JSON.stringify(id)} is not a non-negative integer.`,
      },
    });
  });

  it("keeps the id of an event whose data is not JSON, or whose name is unknown", () => {
    expect(parseSseFrame({ event: "thread", id: "4", data: "{not json" })).toStrictEqual({
      ok: false,
      error: { code: "invalid_json", event: "thread", id: 4, message: "The event data is not JSON." },
    });
    expect(parseSseFrame({ event: "presence", id: "5", data: "{}" })).toStrictEqual({
      ok: false,
      error: { code: "unknown_event", event: "presence", id: 5, message: 'Unknown event "presence".' },
    });
  });

  it("lists at most three payload issues, each at its path or at (payload)", () => {
    expect(parseLiveEvent("message", 6, 5)).toStrictEqual({
      ok: false,
      error: {
        code: "invalid_payload",
        event: "message",
        id: 6,
        message: "Malformed message event: (payload): Invalid input: expected object, received number",
      },
    });
    const parsed = parseLiveEvent("message_chunk", 7, { chunk: 1, side: "c" });
    expect(parsed).toMatchObject({ ok: false, error: { code: "invalid_payload", id: 7 } });
    if (parsed.ok) return;
    expect(parsed.error.message).toBe(
      "Malformed message_chunk event: thread_id: Invalid input: expected string, received undefined; message_id: Invalid input: expected string, received undefined; chunk: Invalid input: expected string, received number",
    );
  });

  it.each([
    [
      "registry",
      "Malformed registry event: thread_id: Invalid input: expected string, received number; children: Invalid input: expected array, received undefined",
    ],
    [
      "approval",
      "Malformed approval event: thread_id: Invalid input: expected string, received number; approval: Invalid input: expected object, received undefined",
    ],
    [
      "divergence",
      "Malformed divergence event: thread_id: Invalid input: expected string, received number; divergence: Invalid input: expected object, received undefined",
    ],
  ])("reports a malformed %s payload as an error value, naming its fields", (event, message) => {
    expect(parseLiveEvent(event, 3, { thread_id: 5 })).toStrictEqual({
      ok: false,
      error: { code: "invalid_payload", event, id: 3, message },
    });
  });

  it("names the telemetry kind whose record is malformed", () => {
    expect(
      parseLiveEvent("telemetry", 8, { thread_id: THREAD, type: "step_started", timestamp: 1, side: "a" }),
    ).toStrictEqual({
      ok: false,
      error: {
        code: "invalid_payload",
        event: "telemetry",
        id: 8,
        message: "Malformed step_started telemetry: step: Invalid input: expected number, received undefined",
      },
    });
    expect(parseLiveEvent("telemetry", 9, { thread_id: THREAD, timestamp: 1 })).toMatchObject({
      ok: false,
      error: {
        code: "invalid_payload",
        message: expect.stringMatching(/^Malformed telemetry event: type: /),
      },
    });
  });

  it("reads each payload's thread and fields", () => {
    expect(
      parseLiveEvent("message_chunk", null, { thread_id: THREAD, message_id: "m", chunk: "Hi", side: "b" }),
    ).toStrictEqual({
      ok: true,
      event: { type: "message_chunk", id: null, threadId: THREAD, messageId: "m", chunk: "Hi", side: "b" },
    });
    expect(
      parseLiveEvent("message_chunk", null, { thread_id: THREAD, message_id: "m", chunk: "" }),
    ).toStrictEqual({
      ok: true,
      event: { type: "message_chunk", id: null, threadId: THREAD, messageId: "m", chunk: "" },
    });
    expect(parseLiveEvent("registry", 3, { thread_id: THREAD, children: [] })).toStrictEqual({
      ok: true,
      event: { type: "registry", id: 3, threadId: THREAD, children: [], partial: false },
    });
    expect(
      parseLiveEvent("telemetry", 4, { thread_id: THREAD, type: "tool_started", tool: "t", timestamp: 9 }),
    ).toStrictEqual({
      ok: true,
      event: {
        type: "telemetry",
        id: 4,
        threadId: THREAD,
        timestamp: 9,
        telemetry: { type: "tool_started", tool: "t" },
      },
    });
    expect(
      parseLiveEvent("telemetry", 5, { thread_id: THREAD, type: "cache_hit", timestamp: 9 }),
    ).toStrictEqual({
      ok: true,
      event: {
        type: "telemetry",
        id: 5,
        threadId: THREAD,
        timestamp: 9,
        telemetry: { type: "other", name: "cache_hit" },
      },
    });
    const message = messageWire({ id: uuid("m9"), seq: 2 });
    expect(parseLiveEvent("message", 6, { thread_id: THREAD, message })).toMatchObject({
      ok: true,
      event: { type: "message", id: 6, threadId: THREAD, message: { id: uuid("m9"), seq: 2 } },
    });
    expect(parseLiveEvent("thread", 7, threadWire({ id: THREAD }))).toMatchObject({
      ok: true,
      event: { type: "thread", id: 7, thread: { id: THREAD } },
    });
  });
});
