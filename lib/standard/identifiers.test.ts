import { describe, expect, it } from "vitest";
import {
  CALLABLE_NAME_PATTERN,
  closestName,
  ENV_NAME_PATTERN,
  HOOK_ID_PATTERN,
  isReservedRuntimeToolName,
  MODEL_NAME_PATTERN,
} from "./identifiers";

describe("name patterns", () => {
  it("callable names: 1 to 64 letters, digits, _ and -", () => {
    for (const name of ["a", "Z", "9", "_", "-", "get_Weather-2", "a".repeat(64)])
      expect(CALLABLE_NAME_PATTERN.test(name), name).toBe(true);
    for (const name of ["", "a".repeat(65), "a b", "a.b", "é", "a\n", "\na", "a/b"])
      expect(CALLABLE_NAME_PATTERN.test(name), JSON.stringify(name)).toBe(false);
  });

  it("model names: up to 128 characters, dots allowed after the first", () => {
    for (const name of ["a", "gpt-5.1-mini", "_x", "-x", "a".repeat(128), `a${".".repeat(127)}`])
      expect(MODEL_NAME_PATTERN.test(name), name).toBe(true);
    for (const name of ["", ".hidden", "a".repeat(129), "a/b", "a b", "a\n", "\na"])
      expect(MODEL_NAME_PATTERN.test(name), JSON.stringify(name)).toBe(false);
  });

  it("env names: a letter or _ first, then letters, digits and _", () => {
    for (const name of ["A", "_", "_A1", "openai_API_KEY9"])
      expect(ENV_NAME_PATTERN.test(name), name).toBe(true);
    for (const name of ["", "1A", "A-B", "A B", "A\n", "\nA", "Ä"])
      expect(ENV_NAME_PATTERN.test(name), JSON.stringify(name)).toBe(false);
  });

  it("hook ids: a lowercase letter first, then lowercase letters, digits and _", () => {
    for (const name of ["a", "log_messages", "a1_"]) expect(HOOK_ID_PATTERN.test(name), name).toBe(true);
    for (const name of ["", "Log", "logMessages", "_a", "1a", "a-b", "a\n", "\na"])
      expect(HOOK_ID_PATTERN.test(name), JSON.stringify(name)).toBe(false);
  });

  it("reserves exactly the two runtime lifecycle tool names", () => {
    expect(isReservedRuntimeToolName("subagent_create")).toBe(true);
    expect(isReservedRuntimeToolName("subagent_message")).toBe(true);
    for (const name of ["subagent", "subagent_create_", "Subagent_create", ""])
      expect(isReservedRuntimeToolName(name), name).toBe(false);
  });
});

describe("closestName", () => {
  it("finds a candidate whatever its case, keeping the candidate's spelling", () => {
    expect(closestName("PROMPT", ["model", "prompt"])).toBe("prompt");
    expect(closestName("prompt", ["Model", "Prompt"])).toBe("Prompt");
  });

  it("counts an insertion, a deletion and a substitution as one edit each", () => {
    expect(closestName("promt", ["prompt"])).toBe("prompt");
    expect(closestName("prommpt", ["prompt"])).toBe("prompt");
    expect(closestName("prampt", ["prompt"])).toBe("prompt");
    // Two edits in six letters are within a third of the length.
    expect(closestName("pramptt", ["prompt"])).toBe("prompt");
  });

  it("allows a third of the input's length in edits, and at least one", () => {
    expect(closestName("abcdef", ["abcdxy"])).toBe("abcdxy");
    expect(closestName("abcdef", ["abcxyz"])).toBeUndefined();
    expect(closestName("abcdefghi", ["abcdefxyz"])).toBe("abcdefxyz");
    expect(closestName("abcdefghi", ["abcdewxyz"])).toBeUndefined();
    expect(closestName("ab", ["ax"])).toBe("ax");
    expect(closestName("ab", ["xy"])).toBeUndefined();
    expect(closestName("a", ["b"])).toBe("b");
    expect(closestName("a", ["bc"])).toBeUndefined();
  });

  it("picks the closest candidate, the first one on a tie, and none from no candidates", () => {
    expect(closestName("labels", ["label", "lables", "labelz"])).toBe("label");
    expect(closestName("labelx", ["labely", "labelz"])).toBe("labely");
    expect(closestName("labelx", ["zzzzzzzz", "labelz"])).toBe("labelz");
    expect(closestName("x", [])).toBeUndefined();
  });

  it("measures the whole of both names", () => {
    expect(closestName("maxSteps", ["maxStepsPerTurn"])).toBeUndefined();
    expect(closestName("maxStepsPerTurn", ["maxSteps"])).toBeUndefined();
    expect(closestName("xmaxSteps", ["maxSteps"])).toBe("maxSteps");
    expect(closestName("maxStepsx", ["maxSteps"])).toBe("maxSteps");
  });
});
