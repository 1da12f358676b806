// Moving every model of a project to one provider in a single edit (the models view), switching one
// model's provider in the inspector, and telling whether a project still runs on the scripted demo models.
import type { Graph, GraphNode } from "@/lib/graph";
import { DEFAULT_API_KEY_ENV, MODEL_PROVIDERS, type ModelProvider } from "@/lib/standard";

export interface ModelSwitchTarget {
  provider: ModelProvider;
  /** The provider's model id, e.g. "gpt-4o-mini". */
  model: string;
  /** Required by openai-compatible servers (e.g. Ollama's "http://127.0.0.1:11434/v1"). */
  baseURL?: string;
  /** The NAME of the env variable holding the key; never the key. */
  apiKeyEnv?: string;
}

/** A sensible model id per provider, offered when the user switches. */
export const DEFAULT_PROVIDER_MODEL: Record<ModelProvider, string> = {
  openai: "gpt-4o-mini",
  anthropic: "claude-3-5-haiku-latest",
  "openai-compatible": "llama3.2",
  scripted: "scripted",
};

/** What a model switched to the scripted provider answers: the user's message, back. */
export const DEFAULT_DEMO_SCRIPT = [{ text: "Demo answer (scripted): {{input}}" }];

export function modelNodes(graph: Graph): Extract<GraphNode, { type: "model" }>[] {
  return graph.nodes.filter((node): node is Extract<GraphNode, { type: "model" }> => node.type === "model");
}

/** True when the project has models and every one of them is scripted. */
export function runsOnDemoModels(graph: Graph): boolean {
  const models = modelNodes(graph);
  return models.length > 0 && models.every((node) => node.data.definition.provider === "scripted");
}

function switchedDefinition(definition: Record<string, unknown>, target: ModelSwitchTarget) {
  const next: Record<string, unknown> = { ...definition, provider: target.provider, model: target.model };
  delete next.baseURL;
  delete next.apiKeyEnv;
  if (target.baseURL) next.baseURL = target.baseURL;
  if (target.apiKeyEnv) next.apiKeyEnv = target.apiKeyEnv;
  // Only the scripted provider plays scripts, and it needs one.
  if (target.provider !== "scripted") {
    delete next.script;
    delete next.scriptLoopFrom;
  } else if (!Array.isArray(next.script)) next.script = DEFAULT_DEMO_SCRIPT.map((step) => ({ ...step }));
  return next;
}

/** Every model node moved to `target`; names, fallbacks and prices are kept. Unchanged when there are no models. */
export function switchAllModels(graph: Graph, target: ModelSwitchTarget): Graph {
  if (modelNodes(graph).length === 0) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((node) =>
      node.type === "model"
        ? { ...node, data: { definition: switchedDefinition(node.data.definition, target) } }
        : node,
    ),
  };
}

const isProvider = (value: unknown): value is ModelProvider =>
  typeof value === "string" && (MODEL_PROVIDERS as readonly string[]).includes(value);

const DEFAULT_MODEL_IDS: ReadonlySet<string> = new Set(Object.values(DEFAULT_PROVIDER_MODEL));

/**
 * One model moved to `next` by the inspector's Provider select, as switching a tool's Kind does: the
 * new provider's valid defaults come, the previous provider's leftovers go. A model id or key variable
 * the user wrote is kept between real providers; the scripted provider takes no id of another
 * provider, no key and no endpoint, and gets a demo script. A script the user wrote stays when the
 * model moves to a real provider (a warning says only scripted plays it; the demo script goes), so
 * switching back finds it. Unknown providers change only `provider`.
 */
export function switchModelProvider(model: Record<string, unknown>, next: string): Record<string, unknown> {
  if (!isProvider(next)) return { ...model, provider: next };
  const previous = isProvider(model.provider) ? model.provider : undefined;
  const currentId = typeof model.model === "string" ? model.model.trim() : "";
  // A scripted model's id names no real model: it is not kept for a real provider.
  const keepId =
    next !== "scripted" && previous !== "scripted" && currentId !== "" && !DEFAULT_MODEL_IDS.has(currentId);
  const currentKey = typeof model.apiKeyEnv === "string" ? model.apiKeyEnv : undefined;
  const previousDefaultKey = previous ? DEFAULT_API_KEY_ENV[previous] : undefined;
  const keepKey = next !== "scripted" && currentKey !== undefined && currentKey !== previousDefaultKey;
  const baseURL = typeof model.baseURL === "string" && next !== "scripted" ? model.baseURL : undefined;
  const switched = switchedDefinition(model, {
    provider: next,
    model: keepId ? currentId : DEFAULT_PROVIDER_MODEL[next],
    baseURL,
    apiKeyEnv: keepKey ? currentKey : DEFAULT_API_KEY_ENV[next],
  });
  const written =
    Array.isArray(model.script) && JSON.stringify(model.script) !== JSON.stringify(DEFAULT_DEMO_SCRIPT);
  if (next === "scripted" || !written) return switched;
  return {
    ...switched,
    script: model.script,
    ...(model.scriptLoopFrom !== undefined ? { scriptLoopFrom: model.scriptLoopFrom } : {}),
  };
}
