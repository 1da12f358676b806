import { describe, expect, it } from "vitest";
import { compareRequests, firstDifference, withNumberedIds } from "./replay-match";

const A = "0b7d6c4e-1f2a-4b3c-8d9e-0a1b2c3d4e5f";
const B = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
const C = "11111111-2222-4333-8444-555555555555";

describe("withNumberedIds", () => {
  it("numbers UUIDs by first appearance, everywhere in strings", () => {
    expect(withNumberedIds({ x: `child ${A} and ${B}`, y: [A] })).toEqual({
      x: "child <id:0> and <id:1>",
      y: ["<id:0>"],
    });
  });

  it("sorts keys and drops undefined members", () => {
    expect(JSON.stringify(withNumberedIds({ b: 1, a: undefined, c: 2 }))).toBe('{"b":1,"c":2}');
  });
});

describe("compareRequests", () => {
  const request = (system: string, child: string, tools: unknown[] = [{ name: "search" }]) => ({
    messages: [
      { role: "system", content: system },
      { role: "user", content: "hello" },
      { role: "tool", content: `Spawned ${child}`, tool_call_id: "call_1" },
    ],
    tools,
  });

  it("matches when only the ids differ, consistently", () => {
    expect(compareRequests(request("Be brief.", A), request("Be brief.", B))).toBeNull();
  });

  it("does not match when a new id stands where a known one was", () => {
    const recorded = { messages: [{ content: `${A} then ${B}` }] };
    const replayed = { messages: [{ content: `${C} then ${C}` }] };
    expect(compareRequests(recorded, replayed)).toEqual({
      path: "messages[0].content",
      recorded: "<id:0> then <id:1>",
      replayed: "<id:0> then <id:0>",
    });
  });

  it("names the first difference in the system prompt", () => {
    expect(compareRequests(request("Be brief.", A), request("Be thorough.", A))).toEqual({
      path: "messages[0].content",
      recorded: "Be brief.",
      replayed: "Be thorough.",
    });
  });

  it("reports a changed tool list", () => {
    const found = compareRequests(request("x", A), request("x", A, [{ name: "search" }, { name: "fetch" }]));
    expect(found).toEqual({ path: "tools[1]", recorded: "(nothing)", replayed: { name: "fetch" } });
  });

  it("ignores key order and undefined members (the recording went through JSON)", () => {
    expect(
      compareRequests(
        { messages: [{ role: "user", content: "x" }] },
        { messages: [{ content: "x", role: "user", name: undefined }] },
      ),
    ).toBeNull();
  });

  it("cuts long differing values to an excerpt", () => {
    const found = compareRequests({ m: "a".repeat(3000) }, { m: "b".repeat(3000) });
    expect(String(found?.recorded ?? "").length).toBeLessThan(1300);
    expect(String(found?.recorded ?? "")).toMatch(/^a+…$/);
    const objects = compareRequests({ m: { a: "x".repeat(1000) } }, { m: 1 });
    expect(String(JSON.stringify(objects?.recorded)).length).toBeLessThan(320);
  });

  it("keeps the change of two long strings in both excerpts: a sentence appended to a long prompt", () => {
    const prompt = `You lead a small team. ${"Plan the work and hand it out. ".repeat(30)}`;
    const found = compareRequests(
      { messages: [{ role: "system", content: prompt }] },
      { messages: [{ role: "system", content: `${prompt} Always be brief.` }] },
    );
    expect(found?.path).toBe("messages[0].content");
    expect(found?.recorded).not.toEqual(found?.replayed);
    expect(String(found?.replayed)).toMatch(/ Always be brief\.$/);
    expect(String(found?.recorded)).toMatch(/^….*hand it out\. $/);
    expect(String(found?.replayed).length).toBeLessThan(200);
  });

  it("cuts the shared text around a change in the middle on both sides", () => {
    const before = "a ".repeat(400);
    const after = " z".repeat(400);
    const found = compareRequests({ m: `${before}old${after}` }, { m: `${before}new${after}` });
    expect(String(found?.recorded)).toMatch(/^…(a )+old( z)+…$/);
    expect(String(found?.replayed)).toMatch(/^…(a )+new( z)+…$/);
    expect(String(found?.recorded).length).toBeLessThan(340);
  });
});

describe("registry statuses", () => {
  const registry = (status: string) =>
    `Subagents you have started (1):\n- worker (reference: ${A}; agent: worker; one-off; status: ${status}) — Drafts.`;

  it("ignores the status of a registry line (timing, not design) but nothing else of it", () => {
    expect(
      compareRequests({ messages: [registry("running")] }, { messages: [registry("completed")] }),
    ).toBeNull();
    expect(
      compareRequests(
        { messages: [registry("running")] },
        { messages: [registry("running").replace("Drafts", "Writes")] },
      ),
    ).not.toBeNull();
    expect(
      compareRequests({ messages: ["status: running)"] }, { messages: ["status: completed)"] }),
    ).not.toBeNull();
  });
});

describe("firstDifference", () => {
  it("is null for equal values and finds a longer array", () => {
    expect(firstDifference([1, { a: 2 }], [1, { a: 2 }])).toBeNull();
    expect(firstDifference([1], [1, 2])).toEqual({ path: "[1]", recorded: "(nothing)", replayed: 2 });
  });
});
