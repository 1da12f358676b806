// The definitions the benchmarks run: a one-sided chat agent (ai_human) and a two-sided dual_ai
// agent, both on the scripted model provider with zero delay, so every figure is runtime overhead
// (context assembly, persistence, scheduling) and never model latency.
import type { Bundle } from "@/lib/standard";

/** ai_human: side A answers each human message with one text step, then the thread parks idle. */
export function chatBundle(turns: number): Bundle {
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
        script: Array.from({ length: turns }, (_, index) => ({ text: `Answer ${index + 1} to: {{input}}` })),
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
