import { describe, expect, it } from "vitest";
import {
  compareDiagnostics,
  DIAGNOSTIC_CODES,
  type Diagnostic,
  DiagnosticSchema,
  describeEntity,
  entityAtPath,
  entityKindAtPath,
  formatPath,
  hasErrors,
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

  it("writes a key as .name only when all of it is a JS identifier, and a first key without a dot", () => {
    expect(formatPath(["env"])).toBe("env");
    expect(formatPath([0, "name"])).toBe("[0].name");
    expect(formatPath(["env", "$HOME", "_x9"])).toBe("env.$HOME._x9");
    // A leading digit, an inner dash or a trailing space is not an identifier anywhere in the key.
    expect(formatPath(["env", "9lives"])).toBe('env["9lives"]');
    expect(formatPath(["env", "MY-VAR"])).toBe('env["MY-VAR"]');
    expect(formatPath(["env", "x "])).toBe('env["x "]');
    expect(formatPath(["env", " x"])).toBe('env[" x"]');
    expect(formatPath(["env", ""])).toBe('env[""]');
    expect(formatPath(["env", 'say "hi"'])).toBe('env["say \\"hi\\""]');
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

  it("orders multi-digit indexes numerically at any depth", () => {
    const sorted = sortDiagnostics([
      diagnostic("prompts[3].tools[12]"),
      diagnostic("prompts[3].tools[9]"),
      diagnostic("prompts[21]"),
      diagnostic("prompts[3].tools[100]"),
    ]);
    expect(sorted.map((entry) => entry.path)).toEqual([
      "prompts[3].tools[9]",
      "prompts[3].tools[12]",
      "prompts[3].tools[100]",
      "prompts[21]",
    ]);
  });

  it("orders quoted keys by their text, indexes before names, and shorter paths first", () => {
    const sorted = sortDiagnostics([
      diagnostic('tools[0].headers["X-b"]'),
      diagnostic("tools[0].headers.auth"),
      diagnostic('tools[0].headers["X-a"]'),
      diagnostic('tools[0].headers["A\\"z"]'),
      diagnostic("tools[0].headers"),
      diagnostic("tools.name"),
      diagnostic("tools[0]"),
    ]);
    expect(sorted.map((entry) => entry.path)).toEqual([
      "tools[0]",
      "tools[0].headers",
      'tools[0].headers["A\\"z"]',
      'tools[0].headers["X-a"]',
      'tools[0].headers["X-b"]',
      "tools[0].headers.auth",
      "tools.name",
    ]);
  });

  it("puts an index before a name at the same place, whichever is compared first", () => {
    expect(compareDiagnostics(diagnostic("agents[0]"), diagnostic("agents.x"))).toBeLessThan(0);
    expect(compareDiagnostics(diagnostic("agents.x"), diagnostic("agents[0]"))).toBeGreaterThan(0);
    expect(compareDiagnostics(diagnostic("agents[3]"), diagnostic("agents[3]"))).toBe(0);
  });

  it("compares quoted keys by their text and whole names, not characters", () => {
    expect(sortDiagnostics([diagnostic('x["b-c"]'), diagnostic("x.a")]).map((entry) => entry.path)).toEqual([
      "x.a",
      'x["b-c"]',
    ]);
    expect(sortDiagnostics([diagnostic("x.abc"), diagnostic("x.ab.z")]).map((entry) => entry.path)).toEqual([
      "x.ab.z",
      "x.abc",
    ]);
  });

  it("orders by message last, and keeps exact duplicates", () => {
    const make = (message: string, severity: Diagnostic["severity"] = "error") =>
      ({ severity, code: "invalid_value", path: "agents[0]", message }) satisfies Diagnostic;
    const sorted = sortDiagnostics([make("b"), make("a", "warning"), make("a"), make("b")]);
    expect(sorted.map((entry) => `${entry.severity}:${entry.message}`)).toEqual([
      "error:a",
      "error:b",
      "error:b",
      "warning:a",
    ]);
  });

  it("puts warnings after errors whatever the code says", () => {
    const sorted = sortDiagnostics([
      diagnostic("agents[0]", "warning", "deprecated_property"),
      diagnostic("agents[0]", "error", "unknown_prompt"),
    ]);
    expect(sorted.map((entry) => entry.severity)).toEqual(["error", "warning"]);
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

describe("entityAtPath guards", () => {
  it("names each kind of definition", () => {
    const bundle = {
      agents: [{ name: "a" }],
      prompts: [{ name: "p" }],
      models: [{ name: "m" }],
      tools: [{ name: "t" }],
    };
    expect(entityAtPath(bundle, ["prompts", 0])).toEqual({ kind: "prompt", name: "p" });
    expect(entityAtPath(bundle, ["models", 0, "script"])).toEqual({ kind: "model", name: "m" });
    expect(entityAtPath(bundle, ["tools", 0])).toEqual({ kind: "tool", name: "t" });
    expect(describeEntity(bundle, ["prompts", 0])).toBe('Prompt "p"');
    expect(describeEntity(bundle, ["models", 0])).toBe('Model "m"');
    expect(describeEntity(bundle, ["tools", 0])).toBe('Tool "t"');
  });

  it("needs a collection name then a numeric index", () => {
    const bundle = { agents: [{ name: "a" }] };
    expect(entityAtPath(bundle, ["agents", "0"])).toBeUndefined();
    expect(entityAtPath(bundle, [0, 0])).toBeUndefined();
    expect(entityAtPath(bundle, ["agents"])).toBeUndefined();
  });

  it("knows only the four collections, not keys inherited from Object", () => {
    expect(entityAtPath({ constructor: [{ name: "x" }] }, ["constructor", 0])).toBeUndefined();
    expect(entityAtPath({ others: [{ name: "x" }] }, ["others", 0])).toBeUndefined();
  });

  it("reads nothing from a bundle, list or item that is not what it should be", () => {
    expect(entityAtPath(null, ["agents", 0])).toBeUndefined();
    expect(entityAtPath("agents", ["agents", 0])).toBeUndefined();
    expect(entityAtPath({ agents: { 0: { name: "x" } } }, ["agents", 0])).toBeUndefined();
    expect(entityAtPath({ agents: [null] }, ["agents", 0])).toBeUndefined();
    expect(entityAtPath({ agents: ["x"] }, ["agents", 0])).toBeUndefined();
    expect(entityAtPath({ agents: [{ name: 7 }] }, ["agents", 0])).toBeUndefined();
    expect(entityAtPath({ agents: [{ name: "" }] }, ["agents", 0])).toBeUndefined();
  });

  it("describes a path outside any definition by its start, or as the bundle", () => {
    expect(describeEntity({}, [])).toBe("The bundle");
    expect(describeEntity({}, ["agents"])).toBe("agents");
    expect(describeEntity(null, ["agents", 2, "sideA"])).toBe("agents[2]");
  });
});

describe("entityKindAtPath", () => {
  it("gives the kind of a definition's path, named or not", () => {
    expect(entityKindAtPath(["agents", 3, "name"])).toBe("agent");
    expect(entityKindAtPath(["prompts", 0])).toBe("prompt");
    expect(entityKindAtPath(["models", 1])).toBe("model");
    expect(entityKindAtPath(["tools", 2])).toBe("tool");
  });

  it("gives nothing outside the four collections or without a numeric index", () => {
    expect(entityKindAtPath(["agents", "3"])).toBeUndefined();
    expect(entityKindAtPath([0, 3])).toBeUndefined();
    expect(entityKindAtPath(["agents"])).toBeUndefined();
    expect(entityKindAtPath(["constructor", 0])).toBeUndefined();
    expect(entityKindAtPath(["toString", 0])).toBeUndefined();
  });
});

describe("hasErrors", () => {
  it("is true only when some diagnostic is an error", () => {
    expect(hasErrors([])).toBe(false);
    expect(hasErrors([diagnostic("a", "warning")])).toBe(false);
    expect(hasErrors([diagnostic("a", "warning"), diagnostic("b", "error")])).toBe(true);
  });
});

describe("DiagnosticSchema", () => {
  it("accepts every code and only those", () => {
    for (const code of DIAGNOSTIC_CODES)
      expect(DiagnosticSchema.safeParse(diagnostic("a", "error", code)).success).toBe(true);
    expect(new Set(DIAGNOSTIC_CODES).size).toBe(DIAGNOSTIC_CODES.length);
    expect(DIAGNOSTIC_CODES.every((code) => /^[a-z]+(_[a-z]+)*$/.test(code))).toBe(true);
    expect(DiagnosticSchema.safeParse({ ...diagnostic("a"), code: "" }).success).toBe(false);
    const entity = { kind: "agent", name: "helper" } as const;
    expect(DiagnosticSchema.parse({ ...diagnostic("agents[0]"), entity }).entity).toEqual(entity);
    expect(
      DiagnosticSchema.safeParse({ ...diagnostic("a"), entity: { kind: "team", name: "x" } }).success,
    ).toBe(false);
  });
});

describe("listNames", () => {
  it("quotes and joins names for messages", () => {
    expect(listNames([])).toBe("");
    expect(listNames(["a"])).toBe('"a"');
    expect(listNames(["a", "b"])).toBe('"a" and "b"');
    expect(listNames(["a", "b", "c"])).toBe('"a", "b" and "c"');
    expect(listNames(["a", "b", "c"], "or")).toBe('"a", "b" or "c"');
  });
});
