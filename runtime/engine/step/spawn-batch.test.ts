import { describe, expect, it } from "vitest";
import { resolveSubagentToolConfig } from "@/lib/standard";
import type { StoredToolCall } from "../../store/messages";
import type { SubagentBranch } from "../../subagents/branches";
import type { CatalogEntry } from "../tool-catalog";
import { batchableSpawns, spawnObservingHooks } from "./spawn-batch";

function branch(name: string, blocking: boolean): SubagentBranch {
  return {
    name,
    agent: { name, type: "dual_ai", sideA: { prompt: "a" }, sideB: { prompt: "b" } },
    config: resolveSubagentToolConfig({ name, blocking }),
  };
}

const catalog: { entries: ReadonlyMap<string, CatalogEntry> } = {
  entries: new Map<string, CatalogEntry>([
    ["worker", { kind: "subagent", name: "worker", branch: branch("worker", false) }],
    ["blocker", { kind: "subagent", name: "blocker", branch: branch("blocker", true) }],
    [
      "subagent_create",
      { kind: "subagent_create", name: "subagent_create", branches: [branch("worker", false)] },
    ],
  ]),
};

function call(id: string, name: string, args = '{"message":"go"}'): StoredToolCall {
  return { id, type: "function", function: { name, arguments: args } };
}

describe("batchableSpawns", () => {
  it("batches a run of non-blocking one-off spawns, all but the last (which ends the step)", () => {
    const calls = [call("1", "worker"), call("2", "worker"), call("3", "worker")];
    const batch = batchableSpawns(calls, 0, catalog);
    expect(batch.map((item) => item.call.id)).toEqual(["1", "2"]);
    expect(batch[0]!.args).toEqual({ message: "go" });
    expect(batch[0]!.branch.name).toBe("worker");
  });

  it("does not batch fewer than three spawns in a row", () => {
    expect(batchableSpawns([call("1", "worker"), call("2", "worker")], 0, catalog)).toEqual([]);
  });

  it("starts at the given index and stops at a blocking call, another tool or bad arguments", () => {
    const calls = [
      call("0", "blocker"),
      call("1", "worker"),
      call("2", "worker"),
      call("3", "worker"),
      call("4", "worker"),
      call("5", "blocker"),
      call("6", "worker"),
    ];
    expect(batchableSpawns(calls, 0, catalog)).toEqual([]);
    expect(batchableSpawns(calls, 1, catalog).map((item) => item.call.id)).toEqual(["1", "2", "3"]);
    const broken = [
      call("1", "worker"),
      call("2", "worker"),
      call("3", "worker", "[1]"),
      call("4", "worker"),
    ];
    expect(batchableSpawns(broken, 0, catalog)).toEqual([]);
    const mixed = [call("1", "worker"), call("2", "subagent_create"), call("3", "worker")];
    expect(batchableSpawns(mixed, 0, catalog)).toEqual([]);
  });
});

describe("spawnObservingHooks", () => {
  const hooks = (declared: string[]) => ({ has: (kind: string) => declared.includes(kind) });

  it("is false without hooks or with hooks that do not watch single calls", () => {
    expect(spawnObservingHooks({ hooks: null, hookIds: [] })).toBe(false);
    expect(spawnObservingHooks({ hooks: hooks(["filter_messages"]), hookIds: ["h"] })).toBe(false);
  });

  it("is true when a hook watches tool calls, messages or created subagents", () => {
    for (const kind of ["after_tool_call_success", "after_create_message", "after_subagent_created"])
      expect(spawnObservingHooks({ hooks: hooks([kind]), hookIds: ["h"] })).toBe(true);
  });
});
