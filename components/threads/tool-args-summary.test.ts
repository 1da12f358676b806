import { describe, expect, it } from "vitest";
import { summarizeToolArgs } from "./tool-args-summary";

describe("summarizeToolArgs", () => {
  it("lists an object's arguments as key: value on one line, the whole JSON for the tooltip", () => {
    const args = { path: "/out.md", content: "press kit", overwrite: true };
    expect(summarizeToolArgs(args)).toEqual({
      line: 'path: "/out.md", content: "press kit", overwrite: true',
      full: JSON.stringify(args, null, 2),
    });
  });

  it("cuts a long line to the length with an ellipsis", () => {
    const { line } = summarizeToolArgs({ content: "x".repeat(200) }, 40);
    expect(line).toHaveLength(40);
    expect(line.endsWith("…")).toBe(true);
    expect(line.startsWith('content: "xxx')).toBe(true);
  });

  it("says when there are no arguments, and shows other values as JSON", () => {
    expect(summarizeToolArgs({}).line).toBe("no arguments");
    expect(summarizeToolArgs(undefined).line).toBe("no arguments");
    expect(summarizeToolArgs(["a", 1]).line).toBe('["a",1]');
  });
});
