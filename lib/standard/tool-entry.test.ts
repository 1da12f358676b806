import { describe, expect, it } from "vitest";
import {
  PromptToolConfigSchema,
  PromptToolEntrySchema,
  SUBAGENT_ONLY_FIELDS,
  SubagentToolConfigSchema,
  SubpromptConfigSchema,
  toolEntryName,
  toolEntryObject,
  toolEntryRequiresApproval,
} from "./tool-entry";

describe("SubpromptConfig", () => {
  it("accepts the sub-prompt options", () => {
    const config = {
      name: "summarise",
      initUserMessageProperty: "text",
      initAttachmentsProperty: "files",
      includeTextResponse: false,
      includeToolCalls: false,
      includeErrors: true,
    };
    expect(SubpromptConfigSchema.parse(config)).toEqual(config);
  });
});

describe("PromptToolConfig", () => {
  it("accepts env, the deprecated tenvs and options", () => {
    const config = { name: "search", env: { INDEX: "docs" }, tenvs: { LIMIT: 5 }, options: { safe: true } };
    expect(PromptToolConfigSchema.parse(config)).toEqual(config);
  });

  it("rejects secret-looking keys in options", () => {
    const result = PromptToolConfigSchema.safeParse({ name: "search", options: { apiKey: "sk-1" } });
    expect(result.error?.issues[0]).toMatchObject({
      path: ["options", "apiKey"],
      params: { code: "literal_secret" },
    });
  });
});

describe("SubagentToolConfig", () => {
  it("accepts immediate as a boolean or an object", () => {
    expect(SubagentToolConfigSchema.parse({ name: "child", immediate: true })).toEqual({
      name: "child",
      immediate: true,
    });
    const immediate = {
      nameEnv: "CHILD_NAME",
      descriptionEnv: "CHILD_DESCRIPTION",
      scopedEnv: ["REPO_TOKEN"],
    };
    expect(SubagentToolConfigSchema.parse({ name: "child", immediate }).immediate).toEqual(immediate);
  });

  it("accepts resumable as false or an object, and rejects true", () => {
    expect(SubagentToolConfigSchema.parse({ name: "child", resumable: false }).resumable).toBe(false);
    const resumable = { receives_messages: "side_b", maxInstances: 3, parentCommunication: "explicit" };
    expect(SubagentToolConfigSchema.parse({ name: "child", resumable }).resumable).toEqual(resumable);
    expect(SubagentToolConfigSchema.safeParse({ name: "child", resumable: true }).success).toBe(false);
    expect(
      SubagentToolConfigSchema.safeParse({ name: "child", resumable: { receives_messages: "side_c" } })
        .success,
    ).toBe(false);
  });

  it("accepts blocking, optional and the init mappings", () => {
    const config = {
      name: "child",
      blocking: false,
      optional: "ENABLE_CHILD",
      initUserMessageProperty: "task",
      initAttachmentsProperty: "files",
      initAgentNameProperty: "title",
    };
    expect(SubagentToolConfigSchema.parse(config)).toEqual(config);
  });
});

describe("PromptToolEntry", () => {
  it("accepts a bare name and an object carrying any config's fields", () => {
    expect(PromptToolEntrySchema.parse("search")).toBe("search");
    const entry = { name: "child", blocking: false, includeErrors: false, env: { A: "1" } };
    expect(PromptToolEntrySchema.parse(entry)).toEqual(entry);
  });

  it("gives the name and object form of either entry form", () => {
    expect(toolEntryName("search")).toBe("search");
    expect(toolEntryName({ name: "child", blocking: true })).toBe("child");
    expect(toolEntryObject("search")).toEqual({ name: "search" });
  });
});

describe("toolEntryRequiresApproval", () => {
  it("only an object entry with requiresApproval true waits for a human", () => {
    expect(toolEntryRequiresApproval({ name: "pay", requiresApproval: true })).toBe(true);
    expect(toolEntryRequiresApproval({ name: "pay", requiresApproval: false })).toBe(false);
    expect(toolEntryRequiresApproval({ name: "pay" })).toBe(false);
    expect(toolEntryRequiresApproval("pay")).toBe(false);
  });

  it("keeps requiresApproval when parsed, and the object form of an object entry as it is", () => {
    const entry = { name: "pay", requiresApproval: true };
    expect(PromptToolEntrySchema.parse(entry)).toEqual(entry);
    expect(toolEntryObject(entry)).toBe(entry);
  });

  it("lists the subagent-only fields", () => {
    expect(SUBAGENT_ONLY_FIELDS).toEqual([
      "blocking",
      "resumable",
      "immediate",
      "optional",
      "initAgentNameProperty",
    ]);
  });
});
