import { describe, expect, it } from "vitest";
import { modelsNamedBy } from "@/lib/evals/starter-suites";
import { compileGraph, deriveEdges, type Graph } from "@/lib/graph";
import { validateBundle } from "@/lib/standard";
import { scriptStepAt } from "@/runtime/models/scripted";
import {
  autoLayout,
  documentFromBundle,
  documentFromEditedBundle,
  laidOutDocumentFromBundle,
  placeNewNode,
} from "./document-layout";
import { runTarget } from "./run-target";
import {
  assetTemplate,
  chatTemplate,
  namedWorkersTemplate,
  REFUND_REPLY,
  refundDeskSuites,
  refundDeskTemplate,
  STUDIO_TEMPLATES,
  templateAppliedText,
} from "./templates";

describe("studio templates", () => {
  it.each(STUDIO_TEMPLATES.map((template) => [template.id, template] as const))(
    "%s validates with no diagnostics, uses scripted models only and round-trips through the canvas",
    (_id, template) => {
      const bundle = template.build();
      expect(validateBundle(bundle)).toEqual([]);
      expect(bundle.models.length).toBeGreaterThan(0);
      expect(bundle.models.every((model) => model.provider === "scripted")).toBe(true);
      const compiled = compileGraph(documentFromBundle(bundle));
      expect(compiled.diagnostics).toEqual([]);
      expect(compiled.bundle).toEqual(bundle);
    },
  );

  it("returns a fresh bundle on every call", () => {
    const first = chatTemplate();
    first.agents[0]!.name = "changed";
    expect(chatTemplate().agents[0]!.name).toBe("assistant");
  });

  it("the chat template is one ai_human agent with one prompt whose replies vary, stream and loop", () => {
    const bundle = chatTemplate();
    expect(bundle.agents).toHaveLength(1);
    expect(bundle.agents[0]!.type ?? "ai_human").toBe("ai_human");
    expect(bundle.prompts).toHaveLength(1);
    const model = bundle.models[0]!;
    const texts = (model.script ?? []).map((step) => step.text);
    expect(new Set(texts).size).toBeGreaterThanOrEqual(3);
    expect(texts.every((text) => text?.includes("{{input}}"))).toBe(true);
    expect(model.script!.every((step) => (step.delayMs ?? 0) >= 1_000 && (step.delayMs ?? 0) <= 2_000)).toBe(
      true,
    );
    expect(model.scriptLoopFrom).toBe(1);
  });

  it("the asset template is the spec's worker/reviewer example called from an ai_human orchestrator", () => {
    const bundle = assetTemplate();
    const subagent = bundle.agents.find((agent) => agent.name === "asset_subagent");
    expect(subagent).toMatchObject({
      type: "dual_ai",
      maxSessionTurns: 40,
      sideA: { sessionFail: { name: "fail_asset" } },
      sideB: {
        stopOnResponse: false,
        sessionStop: { name: "approve_asset" },
        sessionStatus: { name: "update_asset_status" },
      },
    });
    const edges = deriveEdges(documentFromBundle(bundle));
    expect(edges.filter((edge) => edge.kind === "subagent")).toHaveLength(1);
  });

  it("the named-workers demo reads like a conversation: the lead's and the critic's replies change from turn to turn", () => {
    const bundle = namedWorkersTemplate();
    const model = (name: string) => bundle.models.find((candidate) => candidate.name === name)!;
    // The lead answers a turn with a text after its tool calls: calls 2, 5, 8 and 11 for four turns.
    const leadReplies = [2, 5, 8, 11].map((index) => scriptStepAt(model("lead_model"), index).text);
    expect(leadReplies.every((text) => typeof text === "string" && text !== "")).toBe(true);
    for (let turn = 1; turn < leadReplies.length; turn += 1) {
      expect(leadReplies[turn], `turn ${turn + 1}`).not.toBe(leadReplies[turn - 1]);
    }
    const reviews = [0, 1, 2].map((index) => scriptStepAt(model("critic_model"), index).text);
    expect(new Set(reviews).size).toBe(3);
  });

  it("the named-workers template has two different resumable workers, created by name", () => {
    const bundle = namedWorkersTemplate();
    const lead = bundle.prompts.find((prompt) => prompt.name === "lead_chat");
    expect(lead?.tools).toEqual([
      { name: "writer", blocking: true, resumable: { receives_messages: "side_a", maxInstances: 2 } },
      { name: "critic", blocking: true, resumable: { receives_messages: "side_a", maxInstances: 2 } },
    ]);
    const created = bundle.models
      .flatMap((model) => model.script ?? [])
      .flatMap((step) => step.toolCalls ?? [])
      .filter((call) => call.name === "subagent_create")
      .map((call) => [call.args.subagent, call.args.name]);
    expect(created).toEqual([
      ["writer", "ada"],
      ["critic", "grace"],
    ]);
    const titles = bundle.agents.filter((agent) => agent.type === "dual_ai").map((agent) => agent.title);
    expect(titles).toEqual(["Writer", "Critic"]);
    expect(deriveEdges(documentFromBundle(bundle)).filter((edge) => edge.kind === "subagent")).toHaveLength(
      2,
    );
  });

  it.each(STUDIO_TEMPLATES.map((template) => [template.id, template] as const))(
    "%s cannot run away: every script loops and every dual_ai agent has a session stop and a turn limit",
    (_id, template) => {
      const bundle = template.build();
      for (const model of bundle.models) expect(model.scriptLoopFrom, model.name).toBeDefined();
      for (const agent of bundle.agents.filter((candidate) => candidate.type === "dual_ai")) {
        expect(agent.maxSessionTurns, agent.name).toBeLessThanOrEqual(40);
        expect(agent.sideA.sessionStop ?? agent.sideB?.sessionStop, agent.name).toBeDefined();
      }
    },
  );
});

describe("document layout", () => {
  const graph = documentFromBundle(assetTemplate());

  it("applies edited definitions keeping positions of nodes whose names still exist", () => {
    const moved: Graph = {
      ...graph,
      nodes: graph.nodes.map((node, index) =>
        index === 0 ? { ...node, position: { x: 999, y: 888 } } : node,
      ),
    };
    const bundle = assetTemplate();
    bundle.agents[0]!.description = "Edited in code.";
    const next = documentFromEditedBundle(moved, bundle);
    expect(next.nodes[0]!.position).toEqual({ x: 999, y: 888 });
    expect(next.nodes[0]!.data).toMatchObject({ definition: { description: "Edited in code." } });
  });

  it("auto layout moves every node back to the layered layout", async () => {
    const laidOut = await laidOutDocumentFromBundle(assetTemplate());
    const scrambled: Graph = {
      ...laidOut,
      nodes: laidOut.nodes.map((node) => ({ ...node, position: { x: 5, y: 5 } })),
    };
    expect((await autoLayout(scrambled)).nodes.map((node) => node.position)).toEqual(
      laidOut.nodes.map((node) => node.position),
    );
  }, 30_000);

  it("places a new node right of the selected one, never on top of another node", () => {
    const selected = graph.nodes[0]!;
    const at = placeNewNode(graph, selected.id);
    expect(at.x).toBeGreaterThan(selected.position.x);
    for (const node of graph.nodes) {
      const apart = Math.abs(node.position.x - at.x) >= 260 || Math.abs(node.position.y - at.y) >= 180;
      expect(apart, node.id).toBe(true);
    }
  });

  it("places a new node in free space when nothing is selected", () => {
    expect(placeNewNode({ version: 1, nodes: [] })).toEqual({ x: 40, y: 40 });
    const occupied: Graph = {
      version: 1,
      nodes: [{ id: "n", type: "note", position: { x: 40, y: 40 }, data: { text: "" } }],
    };
    expect(placeNewNode(occupied)).not.toEqual({ x: 40, y: 40 });
  });
});

describe("runTarget", () => {
  const graph = documentFromBundle(assetTemplate());
  const compiled = compileGraph(graph);

  it("runs the first ai_human agent, or the selected one", () => {
    expect(runTarget(graph, compiled, null)).toEqual({ ok: true, agent: "orchestrator" });
    const dual = graph.nodes.find((node) => node.id === "agent:asset_subagent")!;
    expect(runTarget(graph, compiled, dual.id)).toEqual({ ok: true, agent: "orchestrator" });
  });

  it("refuses with errors or without an ai_human agent", () => {
    expect(runTarget(graph, { ...compiled, valid: false }, null).ok).toBe(false);
    const empty = { version: 1, nodes: [] } as Graph;
    expect(runTarget(empty, compileGraph(empty), null)).toEqual({
      ok: false,
      reason: "Add an ai_human agent to run.",
    });
  });
});

describe("the status after a template", () => {
  it("says what the template replaced and that Undo brings it back", () => {
    expect(templateAppliedText("Chat assistant", 3, "Ctrl+Z")).toBe(
      "New from template: Chat assistant. It replaced 3 nodes; Undo (Ctrl+Z) brings them back. Demo models (scripted): no provider needed.",
    );
    expect(templateAppliedText("Chat assistant", 1, "⌘+Z")).toContain(
      "It replaced 1 node; Undo (⌘+Z) brings it back.",
    );
  });

  it("says nothing was replaced on an empty canvas", () => {
    expect(templateAppliedText("Chat assistant", 0, "Ctrl+Z")).toBe(
      "New from template: Chat assistant. Demo models (scripted): no provider needed.",
    );
  });

  it("points a template with eval suites to the Evals view", () => {
    expect(templateAppliedText("Refund desk + eval suite", 0, "Ctrl+Z", true)).toBe(
      "New from template: Refund desk + eval suite. Demo models (scripted): no provider needed. Save, then open Evals to add its eval suite.",
    );
    expect(STUDIO_TEMPLATES.filter((template) => template.evalSuites).map((template) => template.id)).toEqual(
      ["refund-desk"],
    );
  });

  it("ships the refund desk's suite for the template's own agent and models", () => {
    const bundle = refundDeskTemplate();
    const [suite] = refundDeskSuites();
    expect(bundle.agents.map((agent) => agent.name)).toContain(suite?.agent_id);
    expect(
      modelsNamedBy(suite!).every((model) => bundle.models.some((candidate) => candidate.name === model)),
    ).toBe(true);
    // The reply the suite checks is the one docs/evals.md edits.
    expect(
      bundle.models.find((model) => model.name === "support_model")?.script?.map((step) => step.text),
    ).toContain(REFUND_REPLY);
  });
});
