import { describe, expect, it } from "vitest";
import {
  AgentDefinitionSchema,
  agentSides,
  agentType,
  SessionToolBindingSchema,
  SideConfigSchema,
  sessionBindingToolName,
  sideBindingToolNames,
} from "./agent";

describe("SessionToolBinding", () => {
  it("accepts the string form and keeps it a string", () => {
    expect(SessionToolBindingSchema.parse("finish")).toBe("finish");
  });

  it("accepts the object form and keeps only what was written", () => {
    expect(SessionToolBindingSchema.parse({ name: "finish", messageProperty: "summary" })).toEqual({
      name: "finish",
      messageProperty: "summary",
    });
    expect(
      SessionToolBindingSchema.parse({
        name: "fail",
        messageProperty: "reason",
        attachmentsProperty: "files",
      }),
    ).toEqual({ name: "fail", messageProperty: "reason", attachmentsProperty: "files" });
  });

  it("rejects an empty name in either form", () => {
    expect(SessionToolBindingSchema.safeParse("").success).toBe(false);
    expect(SessionToolBindingSchema.safeParse({ name: "" }).success).toBe(false);
  });

  it("names the bound tool whichever form was written", () => {
    expect(sessionBindingToolName("finish")).toBe("finish");
    expect(sessionBindingToolName({ name: "approve", messageProperty: "summary" })).toBe("approve");
  });
});

describe("SideConfig", () => {
  it("normalises each deprecated alias to its current name", () => {
    const side = SideConfigSchema.parse({
      prompt: "worker",
      endSessionTool: "finish",
      failSessionTool: { name: "give_up", messageProperty: "reason" },
      statusTool: "report",
    });
    expect(side).toEqual({
      prompt: "worker",
      sessionStop: "finish",
      sessionFail: { name: "give_up", messageProperty: "reason" },
      sessionStatus: "report",
    });
    expect(Object.keys(side)).not.toContain("endSessionTool");
  });

  it("rejects an alias given together with its current name, with a clear message", () => {
    const result = SideConfigSchema.safeParse({ prompt: "worker", statusTool: "a", sessionStatus: "b" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ["statusTool"],
        message:
          '"sessionStatus" and its deprecated alias "statusTool" are both set. Keep only "sessionStatus".',
        params: { code: "conflicting_alias" },
      }),
    ]);
  });

  it("does not write defaults into the stored form", () => {
    expect(SideConfigSchema.parse({ prompt: "worker" })).toEqual({ prompt: "worker" });
  });

  it("requires a prompt and a positive integer maxSteps", () => {
    expect(SideConfigSchema.safeParse({}).success).toBe(false);
    expect(SideConfigSchema.safeParse({ prompt: "p", maxSteps: 0 }).success).toBe(false);
    expect(SideConfigSchema.safeParse({ prompt: "p", maxSteps: 2.5 }).success).toBe(false);
    expect(SideConfigSchema.parse({ prompt: "p", maxSteps: 3 })).toEqual({ prompt: "p", maxSteps: 3 });
  });

  it("lists the side's binding tool names in sessionStop, sessionFail, sessionStatus order", () => {
    const side = SideConfigSchema.parse({
      prompt: "p",
      sessionStatus: "status",
      sessionStop: { name: "stop" },
      sessionFail: "fail",
    });
    expect(sideBindingToolNames(side)).toEqual(["stop", "fail", "status"]);
  });
});

describe("AgentDefinition", () => {
  it("accepts every 0.1.0 property including packaging metadata, exactly as written", () => {
    const agent = {
      name: "support",
      type: "dual_ai",
      sideA: { prompt: "a" },
      sideB: { prompt: "b", label: "Critic" },
      maxSessionTurns: 10,
      title: "Support",
      description: "Helps",
      icon: "🛟",
      exposeAsTool: true,
      toolDescription: "Get support",
      env: { REGION: "eu" },
      hooks: ["log_messages"],
      packageName: "@acme/support",
      version: "1.0.0",
      author: "Acme",
      license: "MIT",
    };
    expect(AgentDefinitionSchema.parse(agent)).toEqual(agent);
  });

  it("keeps the minimal form minimal and resolves the type default on read", () => {
    const agent = AgentDefinitionSchema.parse({ name: "chat", sideA: { prompt: "chat" } });
    expect(agent).toEqual({ name: "chat", sideA: { prompt: "chat" } });
    expect(agentType(agent)).toBe("ai_human");
    expect(agentSides(agent)).toEqual([{ key: "sideA", side: { prompt: "chat" } }]);
  });

  it("rejects an unknown type and a non-positive maxSessionTurns", () => {
    expect(
      AgentDefinitionSchema.safeParse({ name: "x", sideA: { prompt: "p" }, type: "human" }).success,
    ).toBe(false);
    expect(
      AgentDefinitionSchema.safeParse({ name: "x", sideA: { prompt: "p" }, maxSessionTurns: 0 }).success,
    ).toBe(false);
  });

  it("normalises aliases inside both sides", () => {
    const agent = AgentDefinitionSchema.parse({
      name: "pair",
      type: "dual_ai",
      sideA: { prompt: "a", failSessionTool: "fail" },
      sideB: { prompt: "b", endSessionTool: { name: "done", messageProperty: "result" } },
    });
    expect(agent.sideA).toEqual({ prompt: "a", sessionFail: "fail" });
    expect(agent.sideB).toEqual({ prompt: "b", sessionStop: { name: "done", messageProperty: "result" } });
  });
});

describe("agent helpers", () => {
  it("lists side B after side A when there is one, and reads a written type", () => {
    const agent = AgentDefinitionSchema.parse({
      name: "pair",
      type: "dual_ai",
      sideA: { prompt: "a" },
      sideB: { prompt: "b" },
    });
    expect(agentSides(agent)).toEqual([
      { key: "sideA", side: { prompt: "a" } },
      { key: "sideB", side: { prompt: "b" } },
    ]);
    expect(agentType(agent)).toBe("dual_ai");
  });

  it("lists no binding tool names for a side without bindings, and names a deprecated alias by its current key", () => {
    expect(sideBindingToolNames(SideConfigSchema.parse({ prompt: "p" }))).toEqual([]);
    expect(
      sideBindingToolNames(SideConfigSchema.parse({ prompt: "p", statusTool: { name: "report" } })),
    ).toEqual(["report"]);
  });

  it("flags each alias that conflicts, and leaves an alias alone next to another key", () => {
    const result = SideConfigSchema.safeParse({
      prompt: "p",
      endSessionTool: "a",
      sessionStop: "b",
      failSessionTool: "c",
      sessionFail: "d",
      statusTool: "e",
    });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([
      ["endSessionTool"],
      ["failSessionTool"],
    ]);
    expect(SideConfigSchema.parse({ prompt: "p", endSessionTool: "a", sessionFail: "b" })).toEqual({
      prompt: "p",
      sessionStop: "a",
      sessionFail: "b",
    });
  });
});
