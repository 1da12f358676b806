import { describe, expect, it } from "vitest";
import { DEFINITION_DEFAULTS } from "./defaults";
import {
  isOptionalBranchEnabled,
  resolveAgent,
  resolvePromptOptions,
  resolvePromptToolConfig,
  resolveSessionBinding,
  resolveSideConfig,
  resolveSubagentToolConfig,
  resolveSubpromptConfig,
  resolveVariable,
} from "./resolve";

const prompt = { name: "p", toolDescription: "P", prompt: "x", model: "m" };

describe("resolveSideConfig", () => {
  it("defaults stopOnResponse to true and keeps what was written", () => {
    expect(resolveSideConfig({ prompt: "p" })).toEqual({ prompt: "p", stopOnResponse: true });
    expect(
      resolveSideConfig({ prompt: "p", stopOnResponse: false, label: "B", maxSteps: 4, stopTool: "done" }),
    ).toEqual({
      prompt: "p",
      stopOnResponse: false,
      label: "B",
      maxSteps: 4,
      stopTool: "done",
    });
  });

  it("resolves both binding forms to { name, messageProperty } with messageProperty defaulting to message", () => {
    const side = resolveSideConfig({
      prompt: "p",
      sessionStop: "finish",
      sessionFail: { name: "fail", attachmentsProperty: "files" },
      sessionStatus: { name: "status", messageProperty: "text" },
    });
    expect(side.sessionStop).toEqual({ name: "finish", messageProperty: "message" });
    expect(side.sessionFail).toEqual({
      name: "fail",
      messageProperty: "message",
      attachmentsProperty: "files",
    });
    expect(side.sessionStatus).toEqual({ name: "status", messageProperty: "text" });
  });

  it("leaves absent bindings absent", () => {
    expect(resolveSideConfig({ prompt: "p" })).not.toHaveProperty("sessionStop");
    expect(resolveSessionBinding({ name: "x", messageProperty: "m" })).not.toHaveProperty(
      "attachmentsProperty",
    );
  });
});

describe("resolveAgent", () => {
  it("applies type ai_human, exposeAsTool false and the side defaults", () => {
    expect(resolveAgent({ name: "chat", sideA: { prompt: "p" } })).toEqual({
      name: "chat",
      type: "ai_human",
      exposeAsTool: false,
      sideA: { prompt: "p", stopOnResponse: true },
    });
  });

  it("resolves side B of a dual_ai agent", () => {
    const agent = resolveAgent({
      name: "pair",
      type: "dual_ai",
      sideA: { prompt: "a" },
      sideB: { prompt: "b", sessionStop: "done" },
    });
    expect(agent.sideB).toEqual({
      prompt: "b",
      stopOnResponse: true,
      sessionStop: { name: "done", messageProperty: "message" },
    });
  });
});

describe("resolvePromptOptions", () => {
  it("applies the spec defaults", () => {
    expect(resolvePromptOptions(prompt)).toEqual({
      includeChat: false,
      includePastTools: false,
      parallelToolCalls: false,
      toolChoice: "auto",
      recentImageThreshold: 10,
    });
  });

  it("keeps written values, including falsy ones", () => {
    expect(
      resolvePromptOptions({
        ...prompt,
        includeChat: true,
        parallelToolCalls: true,
        toolChoice: "none",
        recentImageThreshold: 0,
      }),
    ).toEqual({
      includeChat: true,
      includePastTools: false,
      parallelToolCalls: true,
      toolChoice: "none",
      recentImageThreshold: 0,
    });
  });
});

describe("resolveSubpromptConfig", () => {
  it("defaults includeTextResponse, includeToolCalls and includeErrors to true", () => {
    expect(resolveSubpromptConfig({ name: "sub" })).toEqual({
      name: "sub",
      includeTextResponse: true,
      includeToolCalls: true,
      includeErrors: true,
    });
    expect(
      resolveSubpromptConfig({ name: "sub", includeErrors: false, initUserMessageProperty: "q" }),
    ).toMatchObject({
      includeErrors: false,
      initUserMessageProperty: "q",
    });
  });
});

describe("resolvePromptToolConfig", () => {
  it("merges env over the deprecated tenvs and defaults options to {}", () => {
    expect(resolvePromptToolConfig({ name: "t", tenvs: { A: "old", B: 2 }, env: { A: "new" } })).toEqual({
      name: "t",
      env: { A: "new", B: "2" },
      options: {},
    });
  });
});

describe("resolveSubagentToolConfig", () => {
  it("defaults blocking to true, immediate and resumable to false", () => {
    expect(resolveSubagentToolConfig({ name: "child" })).toEqual({
      name: "child",
      blocking: true,
      immediate: false,
      resumable: false,
    });
  });

  it("defaults parentCommunication to implicit on resumable subagents", () => {
    expect(
      resolveSubagentToolConfig({ name: "c", resumable: { receives_messages: "side_a" } }).resumable,
    ).toEqual({
      receives_messages: "side_a",
      parentCommunication: "implicit",
    });
    expect(
      resolveSubagentToolConfig({
        name: "c",
        resumable: { receives_messages: "side_b", maxInstances: 2, parentCommunication: "explicit" },
      }).resumable,
    ).toEqual({ receives_messages: "side_b", maxInstances: 2, parentCommunication: "explicit" });
  });

  it("normalises immediate to false or an object with scopedEnv", () => {
    expect(resolveSubagentToolConfig({ name: "c", immediate: false }).immediate).toBe(false);
    expect(resolveSubagentToolConfig({ name: "c", immediate: true }).immediate).toEqual({ scopedEnv: [] });
    expect(resolveSubagentToolConfig({ name: "c", immediate: { nameEnv: "N" } }).immediate).toEqual({
      nameEnv: "N",
      scopedEnv: [],
    });
    expect(
      resolveSubagentToolConfig({ name: "c", immediate: { descriptionEnv: "D", scopedEnv: ["TOKEN"] } })
        .immediate,
    ).toEqual({ descriptionEnv: "D", scopedEnv: ["TOKEN"] });
  });

  it("keeps blocking false, optional and the init mappings", () => {
    expect(
      resolveSubagentToolConfig({
        name: "c",
        blocking: false,
        optional: "ENABLE_C",
        initUserMessageProperty: "task",
        initAttachmentsProperty: "files",
        initAgentNameProperty: "title",
      }),
    ).toEqual({
      name: "c",
      blocking: false,
      optional: "ENABLE_C",
      initUserMessageProperty: "task",
      initAttachmentsProperty: "files",
      initAgentNameProperty: "title",
      immediate: false,
      resumable: false,
    });
  });
});

describe("resolveVariable", () => {
  it("defaults required to true and type to secret", () => {
    expect(resolveVariable({ name: "TOKEN" })).toEqual({ name: "TOKEN", required: true, type: "secret" });
    expect(resolveVariable({ name: "REGION", required: false, type: "text", description: "d" })).toEqual({
      name: "REGION",
      required: false,
      type: "text",
      description: "d",
    });
  });
});

describe("isOptionalBranchEnabled", () => {
  it.each(["true", "TRUE", "True", "1", "yes", "YES", " yes "])("enables on %j", (value) => {
    expect(isOptionalBranchEnabled(value)).toBe(true);
  });

  it.each(["false", "0", "no", "", "on", "y", "2", undefined, null])("stays disabled on %j", (value) => {
    expect(isOptionalBranchEnabled(value)).toBe(false);
  });
});

describe("DEFINITION_DEFAULTS", () => {
  it("documents the defaults the resolvers apply", () => {
    expect(DEFINITION_DEFAULTS.subagent).toEqual({
      blocking: true,
      immediate: false,
      resumable: false,
      parentCommunication: "implicit",
    });
    expect(DEFINITION_DEFAULTS.prompt.recentImageThreshold).toBe(10);
    expect(DEFINITION_DEFAULTS.sessionBinding.messageProperty).toBe("message");
    expect(DEFINITION_DEFAULTS.variable).toEqual({ required: true, type: "secret" });
  });
});

// The resolved forms are spread into runtime records and compared by key: a field nobody wrote must
// be absent, not present with the value undefined (`toStrictEqual` tells the two apart).
describe("resolved forms leave unwritten optional fields absent", () => {
  it("a session binding without attachmentsProperty", () => {
    expect(resolveSessionBinding("done")).toStrictEqual({ name: "done", messageProperty: "message" });
  });

  it("a side without bindings", () => {
    expect(resolveSideConfig({ prompt: "p", stopOnResponse: false })).toStrictEqual({
      prompt: "p",
      stopOnResponse: false,
    });
  });

  it("an agent without side B", () => {
    expect(resolveAgent({ name: "chat", type: "dual_ai", sideA: { prompt: "p" } })).toStrictEqual({
      name: "chat",
      type: "dual_ai",
      exposeAsTool: false,
      sideA: { prompt: "p", stopOnResponse: true },
    });
  });

  it("a sub-prompt config without the init mappings", () => {
    expect(resolveSubpromptConfig({ name: "sub" })).toStrictEqual({
      name: "sub",
      includeTextResponse: true,
      includeToolCalls: true,
      includeErrors: true,
    });
  });

  it("a subagent config without init mappings, optional, immediate names or maxInstances", () => {
    expect(
      resolveSubagentToolConfig({
        name: "c",
        immediate: { scopedEnv: ["A"] },
        resumable: { receives_messages: "side_b" },
      }),
    ).toStrictEqual({
      name: "c",
      blocking: true,
      immediate: { scopedEnv: ["A"] },
      resumable: { receives_messages: "side_b", parentCommunication: "implicit" },
    });
  });

  it("a variable without a description", () => {
    expect(resolveVariable({ name: "TOKEN" })).toStrictEqual({
      name: "TOKEN",
      required: true,
      type: "secret",
    });
  });
});

describe("resolved forms keep every written field", () => {
  it("a sub-prompt config keeps both init mappings and every include flag", () => {
    expect(
      resolveSubpromptConfig({
        name: "sub",
        initUserMessageProperty: "question",
        initAttachmentsProperty: "files",
        includeTextResponse: false,
        includeToolCalls: false,
        includeErrors: false,
      }),
    ).toStrictEqual({
      name: "sub",
      initUserMessageProperty: "question",
      initAttachmentsProperty: "files",
      includeTextResponse: false,
      includeToolCalls: false,
      includeErrors: false,
    });
  });

  it("an agent keeps exposeAsTool and its other fields", () => {
    expect(
      resolveAgent({
        name: "chat",
        exposeAsTool: true,
        title: "Chat",
        maxSessionTurns: 3,
        sideA: { prompt: "p" },
      }),
    ).toStrictEqual({
      name: "chat",
      title: "Chat",
      maxSessionTurns: 3,
      type: "ai_human",
      exposeAsTool: true,
      sideA: { prompt: "p", stopOnResponse: true },
    });
  });

  it("a side keeps all three bindings", () => {
    const side = resolveSideConfig({
      prompt: "p",
      sessionStop: "stop",
      sessionFail: "fail",
      sessionStatus: "status",
    });
    expect(side).toStrictEqual({
      prompt: "p",
      stopOnResponse: true,
      sessionStop: { name: "stop", messageProperty: "message" },
      sessionFail: { name: "fail", messageProperty: "message" },
      sessionStatus: { name: "status", messageProperty: "message" },
    });
  });

  it("a prompt keeps includePastTools", () => {
    expect(resolvePromptOptions({ ...prompt, includePastTools: true }).includePastTools).toBe(true);
  });

  it("a tool config without tenvs keeps env, and copies options", () => {
    const options = { region: "eu", depth: 2 };
    const resolved = resolvePromptToolConfig({ name: "t", env: { A: "a" }, options });
    expect(resolved).toStrictEqual({ name: "t", env: { A: "a" }, options: { region: "eu", depth: 2 } });
    expect(resolved.options).not.toBe(options);
    expect(resolvePromptToolConfig({ name: "t" })).toStrictEqual({ name: "t", env: {}, options: {} });
  });

  it("a tool config JSON-encodes non-string tenvs and keeps string ones as written", () => {
    expect(
      resolvePromptToolConfig({ name: "t", tenvs: { S: "plain", N: 2, O: { a: [1] }, B: false } }).env,
    ).toStrictEqual({ S: "plain", N: "2", O: '{"a":[1]}', B: "false" });
  });

  it("an immediate config keeps both names and copies scopedEnv", () => {
    const scopedEnv = ["TOKEN"];
    const immediate = resolveSubagentToolConfig({
      name: "c",
      immediate: { nameEnv: "N", descriptionEnv: "D", scopedEnv },
    }).immediate;
    expect(immediate).toStrictEqual({ nameEnv: "N", descriptionEnv: "D", scopedEnv: ["TOKEN"] });
    expect(immediate !== false && immediate.scopedEnv).not.toBe(scopedEnv);
  });

  it("resumable false stays false", () => {
    expect(resolveSubagentToolConfig({ name: "c", resumable: false }).resumable).toBe(false);
  });
});
