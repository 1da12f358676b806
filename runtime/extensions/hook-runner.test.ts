import { describe, expect, it } from "vitest";
import { defineHook, type HookDefinition, type ThreadState, type ToolResult } from "./define";
import { declaredHookIds, HookRunner } from "./hook-runner";
import { EMPTY_REGISTRY, type ExtensionRegistry } from "./registry";

function registryOf(...hooks: HookDefinition[]): ExtensionRegistry {
  return {
    directory: "",
    tools: new Map(),
    hooks: new Map(hooks.map((hook) => [hook.id, hook])),
    threadEndpoints: [],
    effects: new Map(),
    evals: new Map(),
    mcp: EMPTY_REGISTRY.mcp,
    problems: [],
  };
}

const state = {} as ThreadState;
const append = (id: string, suffix: string) =>
  defineHook({ hook: "after_system_message", id, execute: (_state, system) => `${system}${suffix}` });

describe("declaredHookIds", () => {
  it("uses the prompt's hooks when it declares any, replacing the agent's", () => {
    expect(declaredHookIds({ hooks: ["p"] }, { hooks: ["a"] })).toEqual(["p"]);
    expect(declaredHookIds({ hooks: [] }, { hooks: ["a"] })).toEqual(["a"]);
    expect(declaredHookIds({}, {})).toEqual([]);
  });
});

describe("HookRunner", () => {
  it("chains transforms in declaration order and runs only declared hooks", async () => {
    const logs: string[] = [];
    const runner = new HookRunner(
      registryOf(append("one", "+1"), append("two", "+2"), append("three", "+3")),
      1000,
      (m) => logs.push(m),
    );
    const value = await runner.transform(
      "after_system_message",
      ["two", "one"],
      state,
      (v: string) => [v] as [string],
      "s",
    );
    expect(value).toBe("s+2+1");
    expect(logs).toEqual([]);
  });

  it("keeps the last good value when a hook throws, and logs it without the stack", async () => {
    const logs: string[] = [];
    const broken = defineHook({
      hook: "after_system_message",
      id: "broken",
      execute: () => {
        throw new Error("nope");
      },
    });
    const runner = new HookRunner(registryOf(append("one", "+1"), broken, append("two", "+2")), 1000, (m) =>
      logs.push(m),
    );
    const value = await runner.transform(
      "after_system_message",
      ["one", "broken", "two"],
      state,
      (v: string) => [v] as [string],
      "s",
    );
    expect(value).toBe("s+1+2");
    expect(logs).toEqual(['Hook "broken" (after_system_message) failed: nope; keeping the last good value.']);
  });

  it("propagates a failure when asked (before_create_message from injectMessage)", async () => {
    const broken = defineHook({
      hook: "before_create_message",
      id: "broken",
      execute: () => {
        throw new Error("refused");
      },
    });
    const runner = new HookRunner(registryOf(broken), 1000, () => {});
    await expect(
      runner.transform(
        "before_create_message",
        ["broken"],
        state,
        (v: never) => [v] as [never],
        {} as never,
        {
          propagate: true,
        },
      ),
    ).rejects.toThrow('Hook "broken" (before_create_message) failed: refused');
  });

  it("treats a hook that exceeds the timeout as failed", async () => {
    const logs: string[] = [];
    const slow = defineHook({
      hook: "after_system_message",
      id: "slow",
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 500)),
    });
    const runner = new HookRunner(registryOf(slow), 20, (m) => logs.push(m));
    const value = await runner.transform(
      "after_system_message",
      ["slow"],
      state,
      (v: string) => [v] as [string],
      "s",
    );
    expect(value).toBe("s");
    expect(logs[0]).toContain("timed out after 20 ms");
  });

  it("ends the chain with null for the tool-call hooks, and ignores null elsewhere", async () => {
    const drop = defineHook({ hook: "after_tool_call_success", id: "drop", execute: () => null });
    const never = defineHook({
      hook: "after_tool_call_success",
      id: "never",
      execute: () => ({ status: "error" as const, error: "should not run" }),
    });
    const runner = new HookRunner(registryOf(drop, never), 1000, () => {});
    const call = { id: "c", type: "function" as const, function: { name: "t", arguments: "{}" } };
    const dropped = await runner.transform(
      "after_tool_call_success",
      ["drop", "never"],
      state,
      (v: ToolResult) => [call, v] as [typeof call, ToolResult],
      { status: "success", result: "r" } as ToolResult,
      { nullable: true },
    );
    expect(dropped).toBeNull();
    const nullSystem = new HookRunner(
      registryOf(defineHook({ hook: "after_system_message", id: "nil", execute: () => null })),
      1000,
      () => {},
    );
    expect(
      await nullSystem.transform(
        "after_system_message",
        ["nil"],
        state,
        (v: string) => [v] as [string],
        "kept",
      ),
    ).toBe("kept");
  });

  it("logs a declared hook id that no extension defines, once", async () => {
    const logs: string[] = [];
    const runner = new HookRunner(registryOf(), 1000, (m) => logs.push(m));
    await runner.notify("after_create_message", ["ghost"], state, {} as never);
    await runner.notify("after_create_message", ["ghost"], state, {} as never);
    expect(logs).toEqual(['hook "ghost" is declared but no extension defines it; it does not run.']);
  });
});
