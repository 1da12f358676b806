import { describe, expect, it } from "vitest";
import { storedMessage, toolCall } from "@/test/support/stored-messages";
import { threadCacheBytes } from "./run-memory";
import type { ThreadCache } from "./types";

function cacheOf(messages: ReturnType<typeof storedMessage>[]): ThreadCache {
  return { history: { version: messages.length, messages }, modelCalls: new Map(), requests: new Map() };
}

describe("threadCacheBytes", () => {
  it("grows with the history's text and its tool calls' arguments", () => {
    const short = threadCacheBytes(cacheOf([storedMessage({ role: "user", content: "hi" })]));
    const long = threadCacheBytes(cacheOf([storedMessage({ role: "user", content: "x".repeat(10_000) })]));
    expect(long - short).toBe(2 * (10_000 - 2));
    const withCall = threadCacheBytes(
      cacheOf([
        storedMessage({ role: "user", content: "hi" }),
        storedMessage({
          role: "assistant",
          tool_calls: [toolCall("c1", "search", { query: "y".repeat(1_000) })],
        }),
      ]),
    );
    expect(withCall - short).toBeGreaterThan(2 * 1_000);
  });

  it("counts the remembered requests' messages", () => {
    const cache = cacheOf([storedMessage({ role: "user", content: "hi" })]);
    const before = threadCacheBytes(cache);
    cache.requests.set("a", { id: "r1", messages: new Array(10).fill({}), tools: [] });
    expect(threadCacheBytes(cache)).toBeGreaterThan(before);
  });
});
