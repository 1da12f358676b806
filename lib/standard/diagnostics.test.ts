import { describe, expect, it } from "vitest";
import {
  type Diagnostic,
  describeEntity,
  entityAtPath,
  formatPath,
  listNames,
  sortDiagnostics,
} from "./diagnostics";

const diagnostic = (
  path: string,
  severity: Diagnostic["severity"] = "error",
  code: Diagnostic["code"] = "invalid_value",
) => ({ severity, code, path, message: path }) satisfies Diagnostic;

describe("formatPath", () => {
  it("writes JS-style paths with array indexes and quoted odd keys", () => {
    expect(formatPath(["agents", 0, "sideB"])).toBe("agents[0].sideB");
    expect(formatPath(["prompts", 2, "tools", 1, "resumable", "maxInstances"])).toBe(
      "prompts[2].tools[1].resumable.maxInstances",
    );
    expect(formatPath(["tools", 0, "headers", "X-Api-Key"])).toBe('tools[0].headers["X-Api-Key"]');
    expect(formatPath([])).toBe("");
  });
});

describe("sortDiagnostics", () => {
  it("orders by path with numeric indexes, then errors before warnings, then code", () => {
    const sorted = sortDiagnostics([
      diagnostic("tools[10].name"),
      diagnostic("prompts[0].model", "warning"),
      diagnostic("tools[2].name"),
      diagnostic("agents[1]"),
      diagnostic("prompts[0].model", "error", "unknown_model"),
      diagnostic("prompts[0].model", "error", "empty_value"),
      diagnostic(""),
      diagnostic("agents[1].sideA"),
    ]);
    expect(sorted.map((entry) => `${entry.path}|${entry.severity}|${entry.code}`)).toEqual([
      "|error|invalid_value",
      "agents[1]|error|invalid_value",
      "agents[1].sideA|error|invalid_value",
      "prompts[0].model|error|empty_value",
      "prompts[0].model|error|unknown_model",
      "prompts[0].model|warning|invalid_value",
      "tools[2].name|error|invalid_value",
      "tools[10].name|error|invalid_value",
    ]);
  });

  it("does not change its input", () => {
    const input = [diagnostic("b"), diagnostic("a")];
    sortDiagnostics(input);
    expect(input.map((entry) => entry.path)).toEqual(["b", "a"]);
  });
});

describe("entityAtPath / describeEntity", () => {
  const bundle = { agents: [{ name: "helper" }, {}], prompts: [], models: [], tools: [] };

  it("names the definition a path points into", () => {
    expect(entityAtPath(bundle, ["agents", 0, "sideA"])).toEqual({ kind: "agent", name: "helper" });
    expect(describeEntity(bundle, ["agents", 0, "sideA"])).toBe('Agent "helper"');
  });

  it("falls back to the array position for unnamed definitions and to nothing outside collections", () => {
    expect(entityAtPath(bundle, ["agents", 1])).toBeUndefined();
    expect(describeEntity(bundle, ["agents", 1, "name"])).toBe("agents[1]");
    expect(entityAtPath(bundle, [])).toBeUndefined();
  });
});

describe("listNames", () => {
  it("quotes and joins names for messages", () => {
    expect(listNames(["a"])).toBe('"a"');
    expect(listNames(["a", "b", "c"])).toBe('"a", "b" and "c"');
  });
});
