import { describe, expect, it } from "vitest";
import {
  encodeRequest,
  type LoggedRequest,
  type RequestMemory,
  resolveRequests,
  sameJsonValue,
} from "./request-log";

const tools = [{ name: "t", description: "d", inputSchema: {} }];
const system = { role: "system", content: "S" };

describe("request log encoding", () => {
  it("stores a growing context as deltas and rebuilds every request exactly", () => {
    const requests: LoggedRequest[] = [
      { messages: [system, { role: "user", content: "1" }], tools },
      { messages: [system, { role: "user", content: "1" }, { role: "assistant", content: "2" }], tools },
      // A changed system prompt shares nothing: stored whole.
      {
        messages: [
          { role: "system", content: "S2" },
          { role: "user", content: "1" },
        ],
        tools,
      },
      // Changed tools are stored; shared prefix still used.
      {
        messages: [
          { role: "system", content: "S2" },
          { role: "user", content: "1" },
          { role: "user", content: "3" },
        ],
        tools: [],
      },
    ];
    let memory: RequestMemory | undefined;
    const stored = requests.map((request, index) => {
      const encoded = encodeRequest(`c${index}`, request, memory);
      memory = encoded.memory;
      return { id: `c${index}`, request: encoded.stored };
    });
    expect(stored[1]!.request).toEqual({ base: "c0", keep: 2, tail: [{ role: "assistant", content: "2" }] });
    expect(stored[2]!.request).toEqual(requests[2]);
    expect(stored[3]!.request).toMatchObject({ base: "c2", keep: 2, tools: [] });
    const resolved = resolveRequests([...stored].reverse());
    for (const [index, request] of requests.entries()) expect(resolved.get(`c${index}`)).toEqual(request);
  });

  it("answers null for a request whose base is missing, and resolves long chains", () => {
    expect(resolveRequests([{ id: "x", request: { base: "gone", keep: 1, tail: [] } }]).get("x")).toBeNull();
    let memory: RequestMemory | undefined;
    const messages: unknown[] = [system];
    const stored = [];
    for (let index = 0; index < 1000; index += 1) {
      messages.push({ role: "user", content: String(index) });
      const encoded = encodeRequest(`c${index}`, { messages: [...messages], tools }, memory);
      memory = encoded.memory;
      stored.push({ id: `c${index}`, request: encoded.stored });
    }
    expect(resolveRequests(stored).get("c999")?.messages).toHaveLength(1001);
  });

  it("compares values as their JSON: key order and undefined members do not matter, everything else does", () => {
    expect(sameJsonValue({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(sameJsonValue({ a: 1, skipped: undefined }, { a: 1 })).toBe(true);
    expect(sameJsonValue([undefined], [null])).toBe(true);
    expect(sameJsonValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJsonValue({ a: 1 }, { a: 1, b: 0 })).toBe(false);
    expect(sameJsonValue([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJsonValue({ a: [] }, { a: {} })).toBe(false);
    expect(sameJsonValue("1", 1)).toBe(false);
    expect(sameJsonValue(null, {})).toBe(false);
    expect(sameJsonValue({ at: new Date(0) }, { at: new Date(0).toISOString() })).toBe(true);
  });

  it("stores only the tail when the repeated messages are new objects with the same content", () => {
    const first = encodeRequest(
      "c0",
      { messages: [{ ...system }, { role: "user", content: "1" }], tools },
      undefined,
    );
    const second = encodeRequest(
      "c1",
      {
        messages: [{ ...system }, { role: "user", content: "1" }, { role: "user", content: "2" }],
        tools: [...tools],
      },
      first.memory,
    );
    expect(second.stored).toEqual({ base: "c0", keep: 2, tail: [{ role: "user", content: "2" }] });
  });
});
