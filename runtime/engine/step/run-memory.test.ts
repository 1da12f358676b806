import { describe, expect, it } from "vitest";
import { storedMessage, toolCall } from "@/test/support/stored-messages";
import { newContextMemo } from "../context";
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

  it("counts a growing history's new messages only, and starts over when a message changed", () => {
    const messages = [storedMessage({ role: "user", content: "hi" })];
    const cache = cacheOf(messages);
    threadCacheBytes(cache);
    for (let turn = 0; turn < 5; turn += 1) {
      const grown = [
        ...(cache.history?.messages ?? []),
        storedMessage({ role: "assistant", content: "ok".repeat(turn) }),
      ];
      cache.history = { version: grown.length, messages: grown };
      expect(threadCacheBytes(cache)).toBe(threadCacheBytes(cacheOf(grown)));
    }
    // An edit replaces a message object in the middle: counted anew, not from the stale sum.
    const edited = (cache.history?.messages ?? []).map((message, index) =>
      index === 1 ? { ...message, content: "z".repeat(5_000) } : message,
    );
    const before = threadCacheBytes(cache);
    cache.history = { version: edited.length + 1, messages: edited };
    expect(threadCacheBytes(cache)).toBe(threadCacheBytes(cacheOf(edited)));
    expect(threadCacheBytes(cache)).toBeGreaterThan(before + 9_000);
  });

  it("counts what context assembly remembers", () => {
    const cache = cacheOf([storedMessage({ role: "user", content: "hi" })]);
    const before = threadCacheBytes(cache);
    const memo = newContextMemo();
    memo.pass.result.push({ role: "user", content: "hi" });
    cache.contexts = new Map([["a", memo]]);
    expect(threadCacheBytes(cache)).toBe(before + 64);
    memo.fed = [storedMessage({ role: "user", content: "hi" })];
    expect(threadCacheBytes(cache)).toBe(before + 64 + 8);
  });
});
