import { describe, expect, it } from "vitest";
import { assetBundle, chatBundle, summarize } from "../../test/support/spec-fixtures";
import { validateBundle } from "./validate-bundle";

describe("agent rules", () => {
  it("missing_side_b: a dual_ai agent without side B", () => {
    const bundle = chatBundle();
    bundle.agents.push({
      name: "pair",
      type: "dual_ai",
      maxSessionTurns: 4,
      sideA: { prompt: "assistant_chat" },
    });
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "missing_side_b", path: "agents[1].sideB" },
    ]);
  });

  it("unexpected_side_b: side B configured on an ai_human agent (side B is the human)", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.sideB = { prompt: "assistant_chat" };
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "unexpected_side_b", path: "agents[0].sideB" },
    ]);
    expect(diagnostics[0]?.message).toContain("side B is the human");
  });

  it("missing_max_session_turns: a dual_ai agent without a turn cap is a warning", () => {
    const bundle = assetBundle();
    delete bundle.agents[1]!.maxSessionTurns;
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "missing_max_session_turns", path: "agents[1].maxSessionTurns" },
    ]);
  });

  it("unknown_prompt: a side naming a prompt that does not exist", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.sideA.prompt = "assistent_chat";
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "unknown_prompt", path: "agents[0].sideA.prompt" },
    ]);
    expect(diagnostics[0]?.message).toBe(
      'Agent "assistant" side A ("Assistant") uses prompt "assistent_chat" which is not defined. Define a prompt named "assistent_chat" or pick one of: assistant_chat.',
    );
  });

  it("stop_tool_not_callable: a stopTool that is neither in the prompt's tools nor a binding of the side", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.sideA.stopTool = "done";
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "stop_tool_not_callable", path: "agents[0].sideA.stopTool" },
    ]);
  });

  it("accepts a stopTool the prompt lists or the side binds", () => {
    const listed = assetBundle();
    listed.agents[1]!.sideA.stopTool = "write_file";
    expect(validateBundle(listed)).toEqual([]);
    const bound = chatBundle();
    bound.agents[0]!.sideA.stopTool = "done";
    bound.agents[0]!.sideA.sessionStatus = "done";
    expect(validateBundle(bound)).toEqual([]);
  });

  it("stop_tool_response_property_without_stop_tool: the property is never read", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.sideA.stopToolResponseProperty = "answer";
    expect(summarize(validateBundle(bundle))).toEqual([
      {
        severity: "warning",
        code: "stop_tool_response_property_without_stop_tool",
        path: "agents[0].sideA.stopToolResponseProperty",
      },
    ]);
  });

  it("side_cannot_stop: stopOnResponse false with nothing else that ends the turn", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.sideA.stopOnResponse = false;
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "side_cannot_stop", path: "agents[0].sideA.stopOnResponse" },
    ]);
    bundle.agents[0]!.sideA.maxSteps = 5;
    expect(validateBundle(bundle)).toEqual([]);
  });

  it("conflicting_session_bindings: one tool bound as both sessionStop and sessionFail", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.sideA.sessionStop = "end";
    bundle.agents[0]!.sideA.sessionFail = { name: "end", messageProperty: "reason" };
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "conflicting_session_bindings", path: "agents[0].sideA.sessionFail" },
    ]);
  });

  it("binding_property_not_in_tool_args: a mapped property missing from a defined tool's args", () => {
    const bundle = assetBundle();
    bundle.tools.push({
      name: "approve_asset",
      kind: "code",
      module: "assets/approve",
      description: "Approve the asset.",
      args: { type: "object", properties: { summary: { type: "string" } } },
    });
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      {
        severity: "error",
        code: "binding_property_not_in_tool_args",
        path: "agents[1].sideB.sessionStop.attachmentsProperty",
      },
    ]);
    expect(diagnostics[0]?.message).toContain(
      'Set attachmentsProperty to one of: summary, or add "attachments"',
    );
  });

  it("accepts bindings whose properties the defined tool declares, and bindings to undefined (synthesized) tools", () => {
    const bundle = assetBundle();
    bundle.tools.push({
      name: "approve_asset",
      kind: "code",
      module: "assets/approve",
      description: "Approve the asset.",
      args: { type: "object", properties: { summary: { type: "string" }, attachments: { type: "array" } } },
    });
    expect(validateBundle(bundle)).toEqual([]);
  });

  it("binding_default_property_missing: a string binding to a tool without a `message` argument", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.sideA.sessionStop = "finish";
    bundle.tools.push({
      name: "finish",
      kind: "code",
      module: "finish",
      description: "Finish the chat.",
      args: { type: "object", properties: { result: { type: "string" } } },
    });
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "warning", code: "binding_default_property_missing", path: "agents[0].sideA.sessionStop" },
    ]);
    expect(diagnostics[0]?.message).toContain("Set messageProperty to one of: result.");
  });

  it("missing_tool_description: an exposed agent without a toolDescription", () => {
    const bundle = assetBundle();
    delete bundle.agents[1]!.toolDescription;
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "missing_tool_description", path: "agents[1].toolDescription" },
    ]);
  });

  it("subagent_without_session_stop: an exposed dual_ai agent that can never return a result", () => {
    const bundle = assetBundle();
    const reviewer = bundle.agents[1]!.sideB!;
    delete reviewer.sessionStop;
    reviewer.maxSteps = 5;
    bundle.prompts[2]!.tools = ["read_file", "list_files", "update_asset_status"];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "warning", code: "subagent_without_session_stop", path: "agents[1]" },
    ]);
    // Said in words, not in the definition's field names.
    expect(diagnostics[0]!.message).toContain("session stop tool");
    expect(diagnostics[0]!.message).not.toMatch(/sessionStop|binding/);
  });
});
