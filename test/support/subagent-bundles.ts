// Definition bundles for subagent tests: the spec's example (an orchestrator and the asset_subagent
// worker/reviewer pair, Agents §8), with scripted models and knobs for each rule under test.

export interface AssetBundleOptions {
  /** The orchestrator prompt's tools entry for asset_subagent (beyond its name). */
  config?: Record<string, unknown>;
  orchestratorScript: unknown[];
  workerScript?: unknown[];
  reviewerScript?: unknown[];
  /** Extra tools entries of the worker prompt. */
  workerTools?: unknown[];
  workerVariables?: unknown[];
  /** Extra agents, prompts, models and tools merged into the bundle. */
  extra?: { agents?: unknown[]; prompts?: unknown[]; models?: unknown[]; tools?: unknown[] };
}

export const DEFAULT_WORKER_SCRIPT = [{ text: "Draft: {{input}}" }];
export const DEFAULT_REVIEWER_SCRIPT = [
  {
    toolCalls: [
      { name: "update_asset_status", args: { status: "reviewing" } },
      { name: "approve_asset", args: { summary: "Approved {{input}}" } },
    ],
  },
];

export function assetBundle(options: AssetBundleOptions) {
  return {
    agents: [
      {
        name: "orchestrator",
        type: "ai_human",
        sideA: { prompt: "orchestrator_chat" },
      },
      {
        name: "asset_subagent",
        type: "dual_ai",
        maxSessionTurns: 5,
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
      },
      ...(options.extra?.agents ?? []),
    ],
    prompts: [
      {
        name: "orchestrator_chat",
        toolDescription: "Plans work and delegates assets.",
        prompt: "You orchestrate asset production.",
        model: "orchestrator_model",
        includeChat: true,
        tools: [{ name: "asset_subagent", ...(options.config ?? {}) }],
      },
      {
        name: "asset_worker",
        toolDescription: "Draws assets.",
        prompt: "You draw assets.",
        model: "worker_model",
        includeChat: true,
        ...(options.workerTools ? { tools: options.workerTools } : {}),
        ...(options.workerVariables ? { variables: options.workerVariables } : {}),
      },
      {
        name: "asset_reviewer",
        toolDescription: "Reviews assets.",
        prompt: "You review assets.",
        model: "reviewer_model",
        includeChat: true,
      },
      ...(options.extra?.prompts ?? []),
    ],
    models: [
      { name: "orchestrator_model", provider: "scripted", model: "s", script: options.orchestratorScript },
      {
        name: "worker_model",
        provider: "scripted",
        model: "s",
        script: options.workerScript ?? DEFAULT_WORKER_SCRIPT,
      },
      {
        name: "reviewer_model",
        provider: "scripted",
        model: "s",
        script: options.reviewerScript ?? DEFAULT_REVIEWER_SCRIPT,
      },
      ...(options.extra?.models ?? []),
    ],
    tools: [...(options.extra?.tools ?? [])],
  };
}

export const resultText = (reference: string, result: string) =>
  `Subagent (reference: ${reference}) has returned the following result:\n\n${result}`;

export const failureText = (reference: string, details: string) =>
  `Subagent (reference: ${reference}) has reported a failure:\n\n${details}`;

/** A second dual_ai agent for three-level trees: detail_subagent (maker and checker, sessionStop). */
export function detailAgent(
  checkerScript: unknown[] = [{ toolCalls: [{ name: "detail_ok", args: { message: "4 towers" } }] }],
) {
  return {
    agents: [
      {
        name: "detail_subagent",
        type: "dual_ai",
        exposeAsTool: true,
        toolDescription: "Adds details.",
        maxSessionTurns: 3,
        sideA: { prompt: "detail_maker" },
        sideB: { prompt: "detail_checker", stopOnResponse: false, sessionStop: "detail_ok" },
      },
    ],
    prompts: [
      {
        name: "detail_maker",
        toolDescription: "d",
        prompt: "Add details.",
        model: "detail_model",
        includeChat: true,
      },
      {
        name: "detail_checker",
        toolDescription: "d",
        prompt: "Check.",
        model: "checker_model",
        includeChat: true,
      },
    ],
    models: [
      { name: "detail_model", provider: "scripted", model: "s", script: [{ text: "details" }] },
      { name: "checker_model", provider: "scripted", model: "s", script: checkerScript },
    ],
  };
}

/**
 * The asset example slowed down so a browser can watch it: a non-blocking child whose worker and
 * reviewer each take `delayMs`, a reviewer status update, and a parent that answers the report.
 */
export function observableAssetBundle(delayMs: number) {
  return assetBundle({
    config: { blocking: false, initUserMessageProperty: "task" },
    orchestratorScript: [
      { toolCalls: [{ name: "asset_subagent", args: { task: "{{input}}" } }] },
      { text: "Started." },
      { text: "Got: {{input}}" },
    ],
    workerScript: [{ text: "Draft: {{input}}", delayMs }],
    reviewerScript: [
      {
        delayMs,
        toolCalls: [
          { name: "update_asset_status", args: { status: "reviewing" } },
          { name: "approve_asset", args: { summary: "Approved {{input}}" } },
        ],
      },
    ],
  });
}

/** The asset example fanned out: one step spawns `fanOut` non-blocking children ("job 0", "job 1", …), then notes each report. */
export function assetFanOutBundle(fanOut: number, options: Pick<AssetBundleOptions, "workerScript"> = {}) {
  return assetBundle({
    config: { blocking: false },
    orchestratorScript: [
      {
        toolCalls: Array.from({ length: fanOut }, (_, index) => ({
          name: "asset_subagent",
          args: { message: `job ${index}` },
        })),
      },
      ...Array.from({ length: fanOut + 1 }, () => ({ text: "noted" })),
    ],
    ...options,
  });
}
