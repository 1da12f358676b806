import { describe, expect, it } from "vitest";
import type { GraphNode } from "@/lib/graph";
import { cardFields } from "./card-fields";

const node = (type: "agent" | "prompt" | "tool" | "model", definition: Record<string, unknown>) =>
  ({ id: `${type}:x`, type, position: { x: 0, y: 0 }, data: { definition } }) as GraphNode;

describe("cardFields", () => {
  it("shows an agent's type and both sides with their prompts and labels; an ai_human side B is the human", () => {
    const dual = cardFields(
      node("agent", {
        name: "pair",
        type: "dual_ai",
        sideA: { prompt: "worker", label: "Worker" },
        sideB: { prompt: "reviewer" },
      }),
    );
    expect(dual.tag).toBe("dual_ai");
    expect(dual.sides).toEqual([
      { handle: "sideA", letter: "A", prompt: "worker", label: "Worker", human: false },
      { handle: "sideB", letter: "B", prompt: "reviewer", label: "", human: false },
    ]);
    const chat = cardFields(node("agent", { name: "chat", sideA: { prompt: "p" } }));
    expect(chat.tag).toBe("ai_human");
    expect(chat.sides[1]).toMatchObject({ human: true });
    expect(chat.tooltip).toContain("Side B: the human user");
  });

  it("shows a prompt's model and tool count, a tool's kind, a model's provider and id", () => {
    expect(cardFields(node("prompt", { name: "p", model: "fast", tools: ["a", "b"] }))).toMatchObject({
      detail: "fast",
      meta: "2 tools",
    });
    expect(cardFields(node("prompt", { name: "p", tools: ["a"] }))).toMatchObject({
      detail: "",
      meta: "1 tool",
    });
    expect(cardFields(node("tool", { name: "t", kind: "builtin", builtin: "fs_read" })).detail).toBe(
      "builtin · fs_read",
    );
    expect(
      cardFields(node("tool", { name: "t", kind: "http", method: "POST", url: "https://x" })).detail,
    ).toBe("http · POST https://x");
    expect(cardFields(node("model", { name: "m", provider: "openai", model: "gpt-4o" })).detail).toBe(
      "openai · gpt-4o",
    );
  });
});
