// A seeded generator of bundles for the round-trip property tests: every definition type and field,
// awkward strings (quotes, backticks, `${`, newlines, CR, emoji, lone surrogates) and JSON Schemas
// both with and without a z form. The same seed always gives the same bundle.
import type { Bundle, JsonObject, ModelDefinition, PromptDefinition, ToolDefinition } from "@/lib/standard";

export interface Random {
  next(): number;
  integer(max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: tiny, fast and good enough to drive test data. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    integer: (max) => Math.floor(next() * max),
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

const FRAGMENTS = [
  "hello",
  " ",
  "world",
  '"',
  "'",
  "`",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the exporter must escape this in template literals.
  "${x}",
  "\\",
  "\n",
  "\r\n",
  "\t",
  "é",
  "🎨",
  "\u2028",
  "\u0001",
  "\ud800",
  "{{input}}",
  "*/",
  "//",
  "a".repeat(60),
];

function text(random: Random, allowEmpty = true): string {
  const parts = Array.from({ length: random.integer(6) + (allowEmpty ? 0 : 1) }, () =>
    random.pick(FRAGMENTS),
  );
  const value = parts.join("");
  return allowEmpty || value.trim() !== "" ? value : "text";
}

function identifier(random: Random, prefix: string, index: number): string {
  return `${prefix}${random.pick(["", "_", "-"])}${index}${random.pick(["", "x", "_long_name_for_wrapping"])}`;
}

function maybe<T>(random: Random, make: () => T, probability = 0.4): T | undefined {
  return random.chance(probability) ? make() : undefined;
}

/** Leaves out undefined fields, as a parsed bundle does. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

function jsonValue(random: Random, depth: number): JsonObject[string] {
  const kind = random.integer(depth > 2 ? 4 : 6);
  if (kind === 0) return text(random);
  if (kind === 1) return random.pick([0, 1, -3, 2.5, 1e21, -1e-7, 123456789]);
  if (kind === 2) return random.chance(0.5);
  if (kind === 3) return null;
  if (kind === 4) return Array.from({ length: random.integer(4) }, () => jsonValue(random, depth + 1));
  return jsonObject(random, depth + 1);
}

function jsonObject(random: Random, depth = 0): JsonObject {
  const keys = ["mode", "max-items", "nested value", "x1", "default", "A_B"];
  const result: JsonObject = {};
  for (let index = random.integer(4); index > 0; index--)
    result[random.pick(keys)] = jsonValue(random, depth);
  return result;
}

/** A JSON Schema; about half of them use only what z chains can say. */
export function jsonSchema(random: Random, depth = 0): Record<string, unknown> {
  const withDescription = (schema: Record<string, unknown>) =>
    random.chance(0.4) ? { ...schema, description: text(random) } : schema;
  const kind = random.integer(depth > 2 ? 6 : 9);
  if (kind <= 4) return withDescription({ type: ["string", "number", "integer", "boolean", "null"][kind] });
  if (kind === 5)
    return withDescription({ type: "string", enum: ["a", "b c", '"q"'].slice(0, random.integer(3) + 1) });
  if (kind === 6) return withDescription({ type: "array", items: jsonSchema(random, depth + 1) });
  if (kind === 7) return { type: "string", format: "email", minLength: 2 };
  return objectSchema(random, depth + 1);
}

export function objectSchema(random: Random, depth = 0): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const names = ["query", "limit", "brief", "max-items", "nested value", "message", "attachments"];
  for (let index = random.integer(4); index > 0; index--)
    properties[random.pick(names)] = jsonSchema(random, depth);
  const keys = Object.keys(properties);
  const required = keys.filter(() => random.chance(0.5));
  const schema: Record<string, unknown> = { type: "object", properties };
  if (required.length > 0 || random.chance(0.1))
    schema.required = random.chance(0.1) ? required.reverse() : required;
  if (random.chance(0.15)) schema.additionalProperties = false;
  return random.chance(0.2) ? { ...schema, description: text(random) } : schema;
}

function model(random: Random, index: number, names: string[]): ModelDefinition {
  const provider = random.pick(["openai", "anthropic", "openai-compatible", "scripted"] as const);
  const script =
    provider === "scripted"
      ? [
          { text: text(random) },
          { toolCalls: [{ name: "search", args: jsonObject(random) }], delayMs: 5 },
          { error: text(random) },
        ].slice(0, random.integer(3) + 1)
      : undefined;
  return compact({
    name: names[index]!,
    provider,
    model: provider === "scripted" ? "scripted" : random.pick(["gpt-4.1", "claude-sonnet", "llama3"]),
    baseURL: provider === "openai-compatible" ? "http://localhost:11434/v1" : undefined,
    apiKeyEnv: provider === "scripted" ? undefined : maybe(random, () => "MY_PROVIDER_KEY"),
    fallbacks: maybe(random, () => names.slice(index + 1, index + 2), 0.3),
    includedProviders: maybe(random, () => ["groq"], 0.2),
    inputPrice: maybe(random, () => 2.5, 0.3),
    outputPrice: maybe(random, () => 10, 0.3),
    cachedPrice: maybe(random, () => 0, 0.2),
    capabilities: maybe(random, () => ({ vision: random.chance(0.5), maxContextTokens: 128000 }), 0.3),
    providerOptions: maybe(random, () => jsonObject(random), 0.3),
    providerTools: maybe(random, () => ["web_search"], 0.2),
    script,
    scriptLoopFrom: script ? maybe(random, () => random.integer(script.length), 0.4) : undefined,
  });
}

function tool(random: Random, name: string): ToolDefinition {
  const description = text(random, false);
  const args = maybe(random, () => objectSchema(random), 0.7);
  const kind = random.pick(["http", "builtin", "code"] as const);
  if (kind === "builtin") return compact({ name, description, kind, builtin: "fs_read" as const });
  if (kind === "code") return compact({ name, description, args, kind, module: "billing/create_invoice" });
  return compact({
    name,
    description,
    args,
    kind,
    method: random.pick(["GET", "POST"] as const),
    url: "https://api.example.com/search",
    headers: maybe(random, () => ({
      Authorization: { env: "SEARCH_TOKEN", prefix: "Bearer " },
      Accept: "json",
    })),
    timeoutMs: maybe(random, () => 5000),
  });
}

function prompt(random: Random, index: number, names: string[], models: string[], tools: string[]) {
  const content: PromptDefinition["prompt"] = random.chance(0.5)
    ? text(random)
    : [
        { type: "text", content: text(random) },
        ...(index + 1 < names.length ? [{ type: "include" as const, prompt: names[index + 1]! }] : []),
        { type: "env", property: "USER_NAME" },
      ];
  const definition: PromptDefinition = compact({
    name: names[index]!,
    toolDescription: text(random, false),
    prompt: content,
    model: random.pick(models),
    includeChat: maybe(random, () => random.chance(0.5)),
    includePastTools: maybe(random, () => true, 0.2),
    parallelToolCalls: maybe(random, () => false, 0.2),
    toolChoice: maybe(random, () => random.pick(["auto", "none", "required"] as const), 0.3),
    requiredSchema: maybe(random, () => objectSchema(random)),
    tools:
      tools.length > 0
        ? maybe(random, () => [
            tools[0]!,
            ...tools.slice(1).map((name) => ({ name, env: { REGION: "eu" }, options: { retries: 2 } })),
          ])
        : undefined,
    variables: maybe(
      random,
      () => [{ name: "USER_NAME", description: text(random), required: false, type: "text" as const }],
      0.3,
    ),
    env: maybe(random, () => ({ USER_NAME: text(random) }), 0.3),
    reasoning: maybe(random, () => ({ effort: "high" as const, maxTokens: 2048, include: true }), 0.2),
    recentImageThreshold: maybe(random, () => 3, 0.2),
    hooks: maybe(random, () => ["audit_log"], 0.2),
  });
  return definition;
}

export function randomBundle(seed: number): Bundle {
  const random = seededRandom(seed);
  const modelNames = Array.from({ length: random.integer(3) + 1 }, (_, index) =>
    identifier(random, "model.v", index),
  );
  const toolNames = Array.from({ length: random.integer(4) }, (_, index) =>
    identifier(random, "tool", index),
  );
  const promptNames = Array.from({ length: random.integer(3) + 1 }, (_, index) =>
    identifier(random, "prompt", index),
  );
  const bundle: Bundle = {
    agents: [],
    prompts: promptNames.map((_, index) => prompt(random, index, promptNames, modelNames, toolNames)),
    models: modelNames.map((_, index) => model(random, index, modelNames)),
    tools: toolNames.map((name) => tool(random, name)),
  };
  bundle.agents.push(
    compact({
      name: random.chance(0.3) ? "default" : "assistant",
      title: maybe(random, () => text(random)),
      description: maybe(random, () => text(random)),
      icon: maybe(random, () => "🤖", 0.2),
      env: maybe(random, () => ({ "MY-VAR": "1", REGION: "eu" }), 0.3),
      sideA: compact({
        prompt: promptNames[0]!,
        label: maybe(random, () => text(random)),
        stopOnResponse: maybe(random, () => true),
        maxSteps: maybe(random, () => 12, 0.2),
      }),
      packageName: maybe(random, () => "@acme/assistant", 0.2),
      version: maybe(random, () => "1.2.3", 0.2),
    }),
  );
  if (random.chance(0.5)) {
    bundle.agents.push(
      compact({
        name: "reviewer_pair",
        type: "dual_ai" as const,
        maxSessionTurns: 10,
        exposeAsTool: true,
        toolDescription: text(random, false),
        hooks: maybe(random, () => ["audit_log"], 0.2),
        sideA: { prompt: random.pick(promptNames), label: "Worker", sessionFail: "give_up" },
        sideB: compact({
          prompt: random.pick(promptNames),
          stopOnResponse: false,
          sessionStop: { name: "approve", messageProperty: "summary", attachmentsProperty: "files" },
          sessionStatus: maybe(random, () => "report_status"),
        }),
      }),
    );
  }
  return bundle;
}
