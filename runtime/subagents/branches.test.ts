import { describe, expect, it } from "vitest";
import { type Bundle, indexBundle } from "@/lib/standard";
import { assetBundle } from "@/test/support/subagent-bundles";
import {
  childInputFromArgs,
  createToolSchema,
  EMPTY_TASK_MESSAGE,
  envLookup,
  handedDownEnv,
  immediateCalls,
  lifecycleInput,
  missingChildVariables,
  registrySystemMessage,
  reportText,
  subagentBranches,
  subagentToolSchema,
} from "./branches";

function indexFor(
  config: Record<string, unknown>,
  extra: Parameters<typeof assetBundle>[0] = { orchestratorScript: [] },
) {
  const bundle = assetBundle({ ...extra, config }) as unknown as Bundle;
  const index = indexBundle(bundle);
  const prompt = index.prompts.get("orchestrator_chat")!.definition;
  return { index, prompt };
}

const noEnv = () => undefined;

describe("subagentBranches", () => {
  it("resolves the subagent config with the spec defaults (blocking, not resumable, not immediate)", () => {
    const { index, prompt } = indexFor({});
    const [branch] = subagentBranches(prompt, index, noEnv);
    expect(branch?.name).toBe("asset_subagent");
    expect(branch?.config).toMatchObject({ blocking: true, resumable: false, immediate: false });
  });

  it.each([
    ["true", true],
    ["1", true],
    ["YES", true],
    [" yes ", true],
    ["no", false],
    ["0", false],
    [undefined, false],
  ])("gates an optional branch on its env flag (%s → %s)", (value, enabled) => {
    const { index, prompt } = indexFor({ optional: "FLAG" });
    const branches = subagentBranches(prompt, index, (name) => (name === "FLAG" ? value : undefined));
    expect(branches.length > 0).toBe(enabled);
  });
});

describe("tool schemas", () => {
  it("offers the init properties when the child's side-A prompt has no requiredSchema", () => {
    const { index, prompt } = indexFor({
      initUserMessageProperty: "task",
      initAttachmentsProperty: "files",
      initAgentNameProperty: "label",
    });
    const [branch] = subagentBranches(prompt, index, noEnv);
    const schema = subagentToolSchema(branch!, index) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(["task", "files", "label"]);
    expect(schema.required).toEqual(["task"]);
  });

  it("requires subagent, name and message in subagent_create when several resumable branches exist", () => {
    const { index, prompt } = indexFor({ resumable: { receives_messages: "side_a" } });
    const [branch] = subagentBranches(prompt, index, noEnv);
    expect((createToolSchema([branch!]) as { required: string[] }).required).toEqual(["name", "message"]);
    expect((createToolSchema([branch!, branch!]) as { required: string[] }).required).toEqual([
      "subagent",
      "name",
      "message",
    ]);
  });
});

describe("initial mapping", () => {
  const config = {
    name: "x",
    blocking: true,
    immediate: false as const,
    resumable: false as const,
    initUserMessageProperty: "task",
    initAttachmentsProperty: "files",
    initAgentNameProperty: "label",
  };

  it("maps the message, attachment paths and instance name from the call's arguments", () => {
    expect(childInputFromArgs(config, { task: "draw", files: ["/a.png", "", 3], label: " trees " })).toEqual({
      message: "draw",
      attachmentPaths: ["/a.png"],
      instanceName: "trees",
    });
  });

  it("falls back to the whole arguments as JSON, or a neutral start, when the mapped property is missing", () => {
    expect(childInputFromArgs(config, { topic: "x" }).message).toBe('{"topic":"x"}');
    expect(childInputFromArgs(config, {}).message).toBe(EMPTY_TASK_MESSAGE);
    expect(childInputFromArgs(config, { task: { nested: 1 } }).message).toBe('{"nested":1}');
  });

  it("reads subagent_create and subagent_message arguments, treating a blank name as missing", () => {
    expect(lifecycleInput({ name: "  ", message: "go", attachments: "/f.txt" })).toMatchObject({
      instanceName: null,
      message: "go",
      attachmentPaths: ["/f.txt"],
    });
  });
});

describe("variables and scoped env", () => {
  it("finds the required variables of the child's sides that nothing provides", () => {
    const { index } = indexFor(
      {},
      {
        orchestratorScript: [],
        workerVariables: [
          { name: "API_TOKEN" },
          { name: "OPTIONAL_HINT", required: false },
          { name: "REGION", required: true },
        ],
      },
    );
    const agent = index.agents.get("asset_subagent")!.definition;
    expect(missingChildVariables(agent, index, {})).toEqual({
      required: ["API_TOKEN", "REGION"],
      missing: ["API_TOKEN", "REGION"],
    });
    expect(missingChildVariables(agent, index, { REGION: "eu" }).missing).toEqual(["API_TOKEN"]);
  });

  it("hands down only the immediate config's scopedEnv names, resolved thread → scoped → agent → prompt", () => {
    const { index, prompt } = indexFor({ immediate: { scopedEnv: ["TOKEN", "ABSENT"] } });
    const [branch] = subagentBranches(prompt, index, noEnv);
    const env = envLookup(
      { TOKEN: "thread" },
      { TOKEN: "scoped", OTHER: "o" },
      { TOKEN: "agent" },
      undefined,
    );
    expect(handedDownEnv(branch!, env)).toEqual({ TOKEN: "thread" });
  });
});

describe("immediate calls", () => {
  it("builds a direct call for a one-off branch and subagent_create for a resumable one, never with scoped values", () => {
    const { index, prompt } = indexFor({
      immediate: { nameEnv: "NAME", descriptionEnv: "DESCRIPTION", scopedEnv: ["SECRET"] },
      initAgentNameProperty: "label",
    });
    const env = (name: string) => ({ NAME: "bot", DESCRIPTION: "does things", SECRET: "s3cr3t" })[name];
    const [branch] = subagentBranches(prompt, index, env);
    const calls = immediateCalls([branch!], "the user's request", env);
    expect(calls).toEqual([
      { name: "asset_subagent", args: { message: "the user's request", label: "bot" } },
    ]);
    expect(JSON.stringify(calls)).not.toContain("s3cr3t");
    const resumable = {
      ...branch!,
      config: {
        ...branch!.config,
        resumable: { receives_messages: "side_a" as const, parentCommunication: "implicit" as const },
      },
    };
    expect(immediateCalls([resumable], null, env)).toEqual([
      {
        name: "subagent_create",
        args: { subagent: "asset_subagent", name: "bot", message: "does things", description: "does things" },
      },
    ]);
  });
});

describe("texts", () => {
  it("uses the spec's report templates", () => {
    expect(reportText("r-1", { kind: "completed", result: "done" })).toBe(
      "Subagent (reference: r-1) has returned the following result:\n\ndone",
    );
    expect(reportText("r-1", { kind: "failed", failure: "broken" })).toBe(
      "Subagent (reference: r-1) has reported a failure:\n\nbroken",
    );
    expect(
      reportText("r-1", { kind: "stopped", reason: "Reached max session turns (5 exchanges)" }),
    ).toContain(
      "has reported a failure:\n\nThe subagent stopped before finishing its task: Reached max session turns",
    );
  });

  it("lists the registry for the parent's model, newest 50 at most", () => {
    const entries = Array.from({ length: 52 }, (_, index) => ({
      reference: `ref-${index}`,
      name: `worker-${index}`,
      agent: "asset_subagent",
      resumable: index % 2 === 0,
      status: "running",
      description: "",
    }));
    const text = registrySystemMessage(entries);
    expect(text.split("\n")[0]).toBe("Subagents you have started (52):");
    expect(text).toContain("(2 older subagents not listed)");
    expect(text).not.toContain("worker-1 ");
    expect(text).toContain("worker-51 (reference: ref-51; agent: asset_subagent; one-off; status: running)");
  });
});
