// Helpers for the tests of the runtime's load (`GET /api/health` `load`): a chat whose scripted model
// answers after a delay, and the load as the health endpoint reports it.
import { expect } from "vitest";
import { type RuntimeLoad, runtimeLoadSchema } from "@/lib/contracts/runtime-load";
import type { ServerFixture } from "./fixture";

/** One `ai_human` agent whose scripted model answers `text` after `delayMs`. */
export function slowChatBundle(text: string, delayMs: number) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "Chats",
        prompt: "You are helpful.",
        model: "slow",
        includeChat: true,
      },
    ],
    models: [{ name: "slow", provider: "scripted", model: "scripted", script: [{ text, delayMs }] }],
    tools: [],
  };
}

/** The health endpoint's `load`, checked against its contract. */
export async function readRuntimeLoad(fixture: Pick<ServerFixture, "api">): Promise<RuntimeLoad> {
  const health = await fixture.api<{ load: unknown }>("GET", "/api/health");
  expect(health.status).toBe(200);
  return runtimeLoadSchema.parse(health.body.load);
}
