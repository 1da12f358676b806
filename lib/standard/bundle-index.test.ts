import { describe, expect, it } from "vitest";
import { assetBundle } from "../../test/support/spec-fixtures";
import { classifyToolEntry, indexBundle } from "./bundle-index";

describe("indexBundle", () => {
  it("indexes definitions by name with their positions, first one winning on duplicates", () => {
    const bundle = assetBundle();
    bundle.tools.push({ ...bundle.tools[0]!, description: "duplicate" });
    const index = indexBundle(bundle);
    expect(index.agents.get("asset_subagent")?.index).toBe(1);
    expect(index.tools.get("read_file")?.definition.description).toBe(
      "Read a file from this thread's filesystem.",
    );
    expect(index.models.has("worker_model")).toBe(true);
  });

  it("collects the session binding tools of the sides using each prompt", () => {
    const index = indexBundle(assetBundle());
    expect([...(index.sessionBindingToolsByPrompt.get("asset_reviewer") ?? [])]).toEqual([
      "approve_asset",
      "update_asset_status",
    ]);
    expect([...(index.sessionBindingToolsByPrompt.get("asset_worker") ?? [])]).toEqual(["fail_asset"]);
  });
});

describe("classifyToolEntry", () => {
  const bundle = assetBundle();
  bundle.agents.push({ name: "billing", exposeAsTool: true, sideA: { prompt: "orchestrator_chat" } });
  const index = indexBundle(bundle);

  it("classifies a function tool", () => {
    expect(classifyToolEntry("read_file", index)).toMatchObject({
      kind: "tool",
      name: "read_file",
      config: { name: "read_file" },
    });
  });

  it("classifies a prompt as a sub-prompt", () => {
    expect(classifyToolEntry({ name: "asset_worker", includeErrors: false }, index)).toMatchObject({
      kind: "prompt",
      config: { name: "asset_worker", includeErrors: false },
    });
  });

  it("classifies a dual_ai agent as a subagent and an ai_human agent as a handoff", () => {
    expect(classifyToolEntry({ name: "asset_subagent", blocking: false }, index).kind).toBe("subagent");
    expect(classifyToolEntry("billing", index).kind).toBe("handoff");
  });

  it("classifies a binding tool of a side using the owning prompt, and nothing else, as session_binding", () => {
    expect(classifyToolEntry("approve_asset", index, "asset_reviewer").kind).toBe("session_binding");
    expect(classifyToolEntry("approve_asset", index, "asset_worker").kind).toBe("unknown");
    expect(classifyToolEntry("approve_asset", index).kind).toBe("unknown");
  });

  it("classifies an unresolvable name as unknown", () => {
    expect(classifyToolEntry("nope", index)).toEqual({
      kind: "unknown",
      name: "nope",
      config: { name: "nope" },
    });
  });
});
