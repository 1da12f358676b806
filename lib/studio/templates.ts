// Starting points for an empty project: each template is a pure function returning a fresh Bundle.
// Every model is scripted, so a run finishes without any provider or API key.
import { assetExampleBundle, type Bundle, cloneExample, minimalChatBundle } from "@/lib/spec";

export interface StudioTemplate {
  id: "chat" | "asset" | "named-workers";
  label: string;
  description: string;
  build(): Bundle;
}

export const DEMO_MODELS_NOTE = "Demo models (scripted): no provider needed";

/** (a) One ai_human agent, one prompt, one scripted model that echoes the user. */
export function chatTemplate(): Bundle {
  return cloneExample(minimalChatBundle);
}

/** (b) The spec's asset example: an orchestrator calling the asset_subagent worker/reviewer pair. */
export function assetTemplate(): Bundle {
  return cloneExample(assetExampleBundle);
}

/**
 * (c) An orchestrator with resumable named workers: it creates a worker by name, messages it again,
 * then answers; the worker/reviewer pair approves each draft.
 */
export function namedWorkersTemplate(): Bundle {
  const bundle = cloneExample(assetExampleBundle);
  const orchestrator = bundle.agents.find((agent) => agent.name === "orchestrator");
  if (orchestrator) {
    orchestrator.title = "Team lead";
    orchestrator.description = "Keeps up to three named workers and messages them again to revise.";
  }
  bundle.prompts = bundle.prompts.map((prompt) =>
    prompt.name === "orchestrator_chat"
      ? {
          ...prompt,
          toolDescription: "Lead a team of named asset workers.",
          prompt:
            "You lead a team of asset workers. Start a named worker with subagent_create, send it revisions with subagent_message, then report the result.",
          tools: [
            {
              name: "asset_subagent",
              blocking: true,
              resumable: { receives_messages: "side_a", maxInstances: 3 },
            },
          ],
        }
      : prompt,
  );
  bundle.models = bundle.models.map((model) => {
    if (model.name === "orchestrator_model") {
      return {
        ...model,
        script: [
          { toolCalls: [{ name: "subagent_create", args: { name: "alpha", message: "{{input}}" } }] },
          {
            toolCalls: [{ name: "subagent_message", args: { name: "alpha", message: "Make it brighter." } }],
          },
          { text: "Both drafts are approved: {{tool_result}}" },
        ],
      };
    }
    if (model.name === "reviewer_model") {
      return {
        ...model,
        script: [
          {
            toolCalls: [{ name: "approve_asset", args: { summary: "Approved: {{input}}", attachments: [] } }],
          },
          {
            toolCalls: [
              { name: "approve_asset", args: { summary: "Approved again: {{input}}", attachments: [] } },
            ],
          },
        ],
      };
    }
    return model;
  });
  return bundle;
}

export const STUDIO_TEMPLATES: readonly StudioTemplate[] = [
  {
    id: "chat",
    label: "Chat assistant",
    description: "One ai_human agent with one prompt.",
    build: chatTemplate,
  },
  {
    id: "asset",
    label: "Orchestrator + asset subagent",
    description: "The spec's example: a worker/reviewer dual_ai called as a subagent.",
    build: assetTemplate,
  },
  {
    id: "named-workers",
    label: "Orchestrator + named workers",
    description: "Resumable workers (up to 3) that the orchestrator messages again.",
    build: namedWorkersTemplate,
  },
];
