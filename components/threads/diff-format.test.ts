import { describe, expect, it } from "vitest";
import {
  childPathLabel,
  describeFirstDivergence,
  describeStepDifference,
  formatDelta,
  formatMilliseconds,
  formatUsd,
} from "./diff-format";

describe("diff header formatting", () => {
  it("signs deltas with their relative change", () => {
    expect(formatDelta(100, 120)).toBe("+20 (+20%)");
    expect(formatDelta(200, 150)).toBe("−50 (−25%)");
    expect(formatDelta(5, 5)).toBe("±0");
    expect(formatDelta(0, 7)).toBe("+7");
    expect(formatDelta(1000, 2500, formatMilliseconds)).toBe("+1.50 s (+150%)");
  });

  it("formats durations, money and child paths", () => {
    expect(formatMilliseconds(420)).toBe("420 ms");
    expect(formatMilliseconds(65_000)).toBe("1 min 5 s");
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(0.0042)).toBe("$0.004200");
    expect(formatUsd(1.5)).toBe("$1.5000");
    expect(childPathLabel([])).toBe("root");
    expect(childPathLabel([0, 1])).toBe("child 1 › 2");
  });
});

describe("divergence in plain words", () => {
  const message = { role: "user" };

  it("says which run alone has a message", () => {
    expect(describeStepDifference({ a: message, b: null, differences: ["presence"] })).toBe(
      "only run A has this message",
    );
    expect(
      describeFirstDivergence({ index: 0, path: [], a: null, b: message, differences: ["presence"] }),
    ).toBe("The runs first differ at step 1: only run B has this message.");
  });

  it("names what differs between two messages, and the subagent a step belongs to", () => {
    expect(
      describeFirstDivergence({
        index: 4,
        path: [0, 1],
        a: message,
        b: message,
        differences: ["content", "tool_calls", "tool_status"],
      }),
    ).toBe(
      "The runs first differ at step 5, in subagent 1 › 2: the messages differ in the text, the tool calls and whether the tool succeeded.",
    );
    expect(describeStepDifference({ a: message, b: message, differences: ["content"] })).toBe(
      "the messages differ in the text",
    );
  });

  it("says nothing for a step that is the same", () => {
    expect(describeStepDifference({ a: message, b: message, differences: [] })).toBe("");
  });
});
