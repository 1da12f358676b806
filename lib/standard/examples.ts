// Example bundles that validate with zero diagnostics: studio templates and runtime tests start from these.
import type { Bundle } from "./bundle";

/**
 * A one-prompt chat assistant on a scripted model: the smallest runnable project.
 */
export const minimalChatBundle: Bundle = {
  agents: [
    {
      name: "assistant",
      title: "Assistant",
      description: "A helpful chat assistant.",
      sideA: { label: "Assistant", prompt: "assistant_chat" },
    },
  ],
  prompts: [
    {
      name: "assistant_chat",
      toolDescription: "Answer the user's question.",
      prompt: "You are a helpful assistant. Be concise and accurate.",
      model: "assistant_model",
      includeChat: true,
    },
  ],
  models: [
    {
      name: "assistant_model",
      provider: "scripted",
      model: "scripted",
      script: [{ text: "You said: {{input}}" }],
    },
  ],
  tools: [],
};

/**
 * The spec's own subagent example (Agents §8, `asset_subagent`: a worker side produces, a reviewer
 * side approves), driven by an `orchestrator` chat agent that calls it as a blocking subagent.
 * Every model is scripted, so the whole flow runs without API keys:
 * orchestrator → asset_subagent(brief) → worker drafts → reviewer reports status, then approves
 * → the parent receives the approval summary → orchestrator answers.
 */
export const assetExampleBundle: Bundle = {
  agents: [
    {
      name: "orchestrator",
      type: "ai_human",
      title: "Game art director",
      description: "Plans game assets and delegates each one to the asset subagent.",
      sideA: { label: "Director", prompt: "orchestrator_chat" },
    },
    {
      name: "asset_subagent",
      type: "dual_ai",
      maxSessionTurns: 40,
      exposeAsTool: true,
      toolDescription: "Generate and QA top-down game assets.",
      sideA: {
        label: "Worker",
        prompt: "asset_worker",
        stopOnResponse: true,
        sessionFail: {
          name: "fail_asset",
          messageProperty: "reason",
          attachmentsProperty: "attachments",
        },
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
        sessionStatus: {
          name: "update_asset_status",
          messageProperty: "status",
        },
      },
    },
  ],
  prompts: [
    {
      name: "orchestrator_chat",
      toolDescription: "Plan game assets and delegate their production.",
      prompt:
        "You are a game art director. For each asset the user asks for, call asset_subagent with a precise brief, then report the result.",
      model: "orchestrator_model",
      includeChat: true,
      tools: [
        {
          name: "asset_subagent",
          blocking: true,
          initUserMessageProperty: "brief",
          initAttachmentsProperty: "references",
          initAgentNameProperty: "asset_name",
        },
      ],
    },
    {
      name: "asset_worker",
      toolDescription: "Produce a top-down game asset from a brief.",
      prompt: [
        { type: "text", content: "You produce top-down game assets from a brief. " },
        { type: "include", prompt: "asset_style_guide" },
        {
          type: "text",
          content: " Revise your draft when the reviewer asks. If the brief cannot be done, call fail_asset.",
        },
      ],
      model: "worker_model",
      includeChat: true,
      requiredSchema: {
        type: "object",
        properties: {
          brief: { type: "string", description: "What the asset must show." },
          asset_name: { type: "string", description: "Short name for the asset, e.g. red_potion." },
          references: { type: "array", items: { type: "string" }, description: "Paths of reference images." },
        },
        required: ["brief", "asset_name"],
      },
      tools: ["write_file", "list_files"],
    },
    {
      name: "asset_reviewer",
      toolDescription: "Review a game asset against its brief.",
      prompt: [
        { type: "text", content: "You review top-down game assets. " },
        { type: "include", prompt: "asset_style_guide" },
        {
          type: "text",
          content:
            " Report progress with update_asset_status. When the asset meets the brief, call approve_asset; otherwise explain what to change.",
        },
      ],
      model: "reviewer_model",
      includeChat: true,
      tools: ["read_file", "list_files", "approve_asset", "update_asset_status"],
    },
    {
      name: "asset_style_guide",
      toolDescription: "The house style for game assets.",
      prompt: "House style: 32×32 pixels, top-down view, limited palette, transparent background.",
      model: "worker_model",
    },
  ],
  models: [
    {
      name: "orchestrator_model",
      provider: "scripted",
      model: "scripted",
      script: [
        {
          toolCalls: [
            {
              name: "asset_subagent",
              args: { brief: "A red health potion: {{input}}", asset_name: "red_potion", references: [] },
            },
          ],
        },
        { text: "The asset is ready: {{tool_result}}" },
      ],
    },
    {
      name: "worker_model",
      provider: "scripted",
      model: "scripted",
      script: [{ text: "Draft ready for: {{input}}" }, { text: "Revised draft: {{input}}" }],
    },
    {
      name: "reviewer_model",
      provider: "scripted",
      model: "scripted",
      script: [
        { toolCalls: [{ name: "update_asset_status", args: { status: "reviewing the draft" } }] },
        { toolCalls: [{ name: "approve_asset", args: { summary: "Approved: {{input}}", attachments: [] } }] },
      ],
    },
  ],
  tools: [
    {
      name: "read_file",
      kind: "builtin",
      builtin: "fs_read",
      description: "Read a file from this thread's filesystem.",
    },
    {
      name: "write_file",
      kind: "builtin",
      builtin: "fs_write",
      description: "Write a file to this thread's filesystem.",
    },
    {
      name: "list_files",
      kind: "builtin",
      builtin: "fs_list",
      description: "List the files in a folder of this thread's filesystem.",
    },
  ],
};

/** A deep copy, so tests and templates can change an example without touching the shared one. */
export function cloneExample(bundle: Bundle): Bundle {
  return structuredClone(bundle);
}
