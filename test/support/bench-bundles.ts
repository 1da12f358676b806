// The definitions the benchmarks run: a one-sided chat agent (ai_human) and a two-sided dual_ai
// agent, both on the scripted model provider with zero delay, so every figure is runtime overhead
// (context assembly, persistence, scheduling) and never model latency.
import type { Bundle } from "@/lib/standard";

/**
 * ai_human: side A answers each human message with one text step, then the thread parks idle.
 * `delayMs`: each answer takes that long (tests that look at a thread while its model call waits).
 */
export function chatBundle(turns: number, delayMs = 0): Bundle {
  return {
    agents: [{ name: "chat", type: "ai_human", sideA: { label: "Assistant", prompt: "chat_prompt" } }],
    prompts: [
      {
        name: "chat_prompt",
        toolDescription: "Answer the user.",
        prompt: "You are a benchmark assistant. Answer briefly.",
        model: "chat_model",
        includeChat: true,
      },
    ],
    models: [
      {
        name: "chat_model",
        provider: "scripted",
        model: "scripted",
        script: Array.from({ length: turns }, (_, index) => ({
          text: `Answer ${index + 1} to: {{input}}`,
          ...(delayMs > 0 ? { delayMs } : {}),
        })),
      },
    ],
    tools: [],
  };
}

/**
 * dual_ai: sides A and B answer each other with one text step each (both stopOnResponse), so a
 * thread runs 2 × maxSessionTurns steps and then stops on the session-turn limit.
 */
export function dialogueBundle(maxSessionTurns: number): Bundle {
  const side = (name: "a" | "b") => ({
    name: `side_${name}`,
    toolDescription: `Side ${name.toUpperCase()} of the dialogue.`,
    prompt: `You are side ${name.toUpperCase()} of a benchmark dialogue. Answer briefly.`,
    model: `model_${name}`,
    includeChat: true,
  });
  const model = (name: "a" | "b") => ({
    name: `model_${name}`,
    provider: "scripted" as const,
    model: "scripted",
    script: Array.from({ length: maxSessionTurns }, (_, index) => ({
      text: `${name.toUpperCase()}${index + 1}: replying to "{{input}}"`,
    })),
  });
  return {
    agents: [
      {
        name: "dialogue",
        type: "dual_ai",
        maxSessionTurns,
        sideA: { label: "A", prompt: "side_a", stopOnResponse: true },
        sideB: { label: "B", prompt: "side_b", stopOnResponse: true },
      },
    ],
    prompts: [side("a"), side("b")],
    models: [model("a"), model("b")],
    tools: [],
  };
}

/**
 * A large studio canvas: `teams` times an ai_human lead delegating to a dual_ai worker subagent
 * (2 agents, 2 prompts, 1 tool each) sharing one model; 60 teams are 301 nodes and 480 edges.
 * Used by the compile and canvas benchmarks and the large-canvas end-to-end test.
 */
export function studioBundle(teams: number): Bundle {
  const agents: unknown[] = [];
  const prompts: unknown[] = [];
  const tools: unknown[] = [];
  const models: unknown[] = [{ name: "shared_model", provider: "openai", model: "gpt-4o-mini" }];
  for (let team = 0; team < teams; team += 1) {
    agents.push(
      { name: `lead_${team}`, type: "ai_human", sideA: { prompt: `lead_prompt_${team}` } },
      {
        name: `worker_${team}`,
        type: "dual_ai",
        exposeAsTool: true,
        toolDescription: `Worker team ${team}.`,
        maxSessionTurns: 5,
        sideA: { prompt: `work_prompt_${team}` },
        sideB: { prompt: `work_prompt_${team}`, stopOnResponse: false, sessionStop: `approve_${team}` },
      },
    );
    prompts.push(
      {
        name: `lead_prompt_${team}`,
        toolDescription: `Leads team ${team}.`,
        prompt: "You lead a team.",
        model: "shared_model",
        tools: [`lookup_${team}`, { name: `worker_${team}`, blocking: false }],
      },
      {
        name: `work_prompt_${team}`,
        toolDescription: `Works for team ${team}.`,
        prompt: "You do the work.",
        model: "shared_model",
        tools: [`lookup_${team}`],
      },
    );
    tools.push({
      name: `lookup_${team}`,
      description: "Look something up.",
      kind: "http",
      url: "https://example.com/lookup?q={query}",
      method: "GET",
      args: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    });
  }
  return { agents, prompts, models, tools } as unknown as Bundle;
}
