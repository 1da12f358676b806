import { describe, expect, it } from "vitest";
import { agentInfoFromDefinitions } from "./agent-info";
import {
  formatCost,
  formatDue,
  formatDuration,
  formatTokens,
  handoffTargetOf,
  parseToolCalls,
} from "./format";
import { speakerOf } from "./MessageRow";

describe("live view formatting", () => {
  it("says when an effect is due relative to now", () => {
    const now = 1_700_000_000_000;
    expect(formatDue(now * 1000 + 250_000_000, now)).toBe("in 4m 10s");
    expect(formatDue(now * 1000 + 400_000, now)).toBe("due now");
    expect(formatDue(now * 1000 - 125_000_000, now)).toBe("2m 05s ago");
    expect(formatDue(now * 1000 + 86_400_000_000, now)).toBe("in 24h 00m");
  });

  it("formats durations from microseconds", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(12_400_000)).toBe("12s");
    expect(formatDuration(185_000_000)).toBe("3m 05s");
    expect(formatDuration(3_720_000_000)).toBe("1h 02m");
    expect(formatDuration(-5)).toBe("0s");
  });

  it("formats tokens and cost", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_340)).toBe("12.3k");
    expect(formatTokens(4_100_000)).toBe("4.1M");
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.00421)).toBe("$0.0042");
    expect(formatCost(1.254)).toBe("$1.25");
  });

  it("reads the wire's JSON-encoded tool calls and keeps unreadable ones visible", () => {
    const wire = JSON.stringify([
      {
        id: "call_1",
        type: "function",
        function: { name: "asset_subagent", arguments: '{"task":"a rock"}' },
      },
    ]);
    expect(parseToolCalls(wire)).toEqual([
      { id: "call_1", name: "asset_subagent", args: '{"task":"a rock"}' },
    ]);
    expect(parseToolCalls(null)).toEqual([]);
    expect(parseToolCalls("{oops")).toEqual([{ id: "raw", name: "(unreadable)", args: "{oops" }]);
  });
});

describe("agent info and speakers", () => {
  const agents = agentInfoFromDefinitions({
    agents: [
      { name: "orchestrator", title: " Front desk ", type: "ai_human", sideA: { prompt: "p" } },
      { name: "pair", type: "dual_ai", sideA: { label: "Worker", prompt: "w" }, sideB: { prompt: "r" } },
      { type: "dual_ai" },
    ],
  });

  it("reads agent types, titles and side labels, defaulting labels to Side A / Side B", () => {
    expect(agents).toEqual({
      orchestrator: { type: "ai_human", title: "Front desk", sideLabels: { a: "Side A", b: "Side B" } },
      pair: { type: "dual_ai", title: null, sideLabels: { a: "Worker", b: "Side B" } },
    });
    expect(agentInfoFromDefinitions("not definitions")).toEqual({});
  });

  it("names the side that spoke in a dual_ai thread and the role elsewhere", () => {
    const message = { role: "user", side: "b", name: null } as Parameters<typeof speakerOf>[0];
    expect(speakerOf(message, agents.pair!.sideLabels)).toBe("Side B");
    expect(speakerOf(message, null)).toBe("User");
    expect(speakerOf({ ...message, role: "tool", name: "approve_asset" }, null)).toBe(
      "Tool result · approve_asset",
    );
  });
});

describe("handoff markers", () => {
  const result = { role: "tool", tool_status: "success", metadata: { handoff: { agent: "billing" } } };

  it("reads the target agent of a successful handoff result", () => {
    expect(handoffTargetOf(result)).toBe("billing");
  });

  it("ignores failed calls, other roles and other metadata", () => {
    expect(handoffTargetOf({ ...result, tool_status: "error" })).toBeNull();
    expect(handoffTargetOf({ ...result, role: "assistant" })).toBeNull();
    expect(handoffTargetOf({ ...result, metadata: {} })).toBeNull();
    expect(handoffTargetOf({ ...result, metadata: { handoff: "billing" } })).toBeNull();
    expect(handoffTargetOf({ ...result, metadata: { handoff: { agent: "" } } })).toBeNull();
  });
});
