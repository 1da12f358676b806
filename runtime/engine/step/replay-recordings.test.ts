import { describe, expect, it } from "vitest";
import { type RecordedCall, ReplayRecordings } from "./replay-recordings";

function call(id: string, request: unknown): RecordedCall {
  return {
    id,
    model_name: "m",
    answered_by: null,
    provider_model_id: null,
    request: JSON.stringify(request),
    response: "{}",
    error: null,
    latency_ms: 0,
  };
}

const first = call("c1", { messages: [{ role: "user", content: "hi" }], tools: [] });
const second = call("c2", { base: "c1", keep: 1, tail: [{ role: "assistant", content: "yo" }] });

describe("ReplayRecordings", () => {
  it("reads a side once for every call it already covers, and again for a call beyond it", async () => {
    const recordings = new ReplayRecordings();
    let stored = [first];
    let loads = 0;
    const load = async () => {
      loads += 1;
      return stored;
    };
    expect((await recordings.covering("source", "a", 0, load)).calls).toHaveLength(1);
    await recordings.covering("source", "a", 0, load);
    expect(loads).toBe(1);
    // The source made another call since (it was still running): index 1 reads again.
    stored = [first, second];
    const grown = await recordings.covering("source", "a", 1, load);
    expect(loads).toBe(2);
    expect(grown.calls.map((entry) => entry.id)).toEqual(["c1", "c2"]);
    await recordings.covering("source", "a", 1, load);
    await recordings.covering("source", "a", 0, load);
    expect(loads).toBe(2);
    // Other sides and sources are their own recordings.
    await recordings.covering("source", "b", 0, load);
    await recordings.covering("other", "a", 0, load);
    expect(loads).toBe(4);
  });

  it("rebuilds delta-encoded requests", async () => {
    const recordings = new ReplayRecordings();
    const recording = await recordings.covering("source", "a", 1, async () => [first, second]);
    expect(recording.request("c2")).toEqual({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "yo" },
      ],
      tools: [],
    });
    expect(recording.request("missing")).toBeNull();
  });

  it("keeps at most its capacity of sides, dropping the least recently used", async () => {
    const recordings = new ReplayRecordings(2);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return [first];
    };
    await recordings.covering("s1", "a", 0, load);
    await recordings.covering("s2", "a", 0, load);
    await recordings.covering("s1", "a", 0, load); // s1 used again: s2 is now the oldest
    await recordings.covering("s3", "a", 0, load);
    expect(recordings.size).toBe(2);
    expect(loads).toBe(3);
    await recordings.covering("s1", "a", 0, load);
    expect(loads).toBe(3);
    await recordings.covering("s2", "a", 0, load);
    expect(loads).toBe(4);
  });
});
