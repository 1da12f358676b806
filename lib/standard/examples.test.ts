import { describe, expect, it } from "vitest";
import { asJson } from "../../test/support/spec-fixtures";
import { assetExampleBundle, cloneExample, minimalChatBundle } from "./examples";
import { parseBundle } from "./parse-bundle";
import { validateBundle } from "./validate-bundle";

describe("example bundles", () => {
  it("the spec's asset_subagent example with its orchestrator validates with zero diagnostics", () => {
    expect(validateBundle(assetExampleBundle)).toEqual([]);
    const parsed = parseBundle(asJson(assetExampleBundle));
    expect(parsed).toEqual({ ok: true, bundle: assetExampleBundle, diagnostics: [] });
  });

  it("keeps the spec example's asset_subagent exactly as written in Agents §8", () => {
    const agent = assetExampleBundle.agents.find((candidate) => candidate.name === "asset_subagent");
    expect(agent).toEqual({
      name: "asset_subagent",
      type: "dual_ai",
      maxSessionTurns: 40,
      exposeAsTool: true,
      toolDescription: "Generate and QA top-down game assets.",
      sideA: {
        label: "Worker",
        prompt: "asset_worker",
        stopOnResponse: true,
        sessionFail: { name: "fail_asset", messageProperty: "reason", attachmentsProperty: "attachments" },
      },
      sideB: {
        label: "Reviewer",
        prompt: "asset_reviewer",
        stopOnResponse: false,
        sessionStop: {
          name: "approve_asset",
          messageProperty: "summary",
          attachmentsProperty: "attachments",
        },
        sessionStatus: { name: "update_asset_status", messageProperty: "status" },
      },
    });
    const reviewerTools = assetExampleBundle.prompts.find(
      (prompt) => prompt.name === "asset_reviewer",
    )?.tools;
    expect(reviewerTools).toEqual(expect.arrayContaining(["approve_asset", "update_asset_status"]));
    const orchestratorTools = assetExampleBundle.prompts.find(
      (prompt) => prompt.name === "orchestrator_chat",
    )?.tools;
    expect(orchestratorTools).toEqual([expect.objectContaining({ name: "asset_subagent", blocking: true })]);
    expect(assetExampleBundle.models.every((model) => model.provider === "scripted")).toBe(true);
  });

  it("the minimal chat bundle validates with zero diagnostics", () => {
    expect(parseBundle(asJson(minimalChatBundle))).toEqual({
      ok: true,
      bundle: minimalChatBundle,
      diagnostics: [],
    });
  });

  it("cloneExample returns an independent copy", () => {
    const copy = cloneExample(assetExampleBundle);
    copy.agents[0]!.name = "changed";
    expect(assetExampleBundle.agents[0]!.name).toBe("orchestrator");
  });
});
