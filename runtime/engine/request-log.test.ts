import { describe, expect, it } from "vitest";
import { encodeRequest, type LoggedRequest, type RequestMemory, resolveRequests } from "./request-log";

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
});
