// The lifecycle table is consistent, its predicates say what the table means, and docs/runtime.md
// prints exactly the table the code applies (regenerate it from `lifecycleTableMarkdown()`); a row
// computed without reading it back gets the `finished_at` the database trigger writes.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { THREAD_STATUSES } from "@/lib/contracts/thread";
import {
  allows,
  applyLocked,
  isActive,
  isSessionEnded,
  isTerminated,
  lifecycleTableMarkdown,
  TRANSITIONS,
  TransitionRefusedError,
} from "./thread-lifecycle";
import { type ThreadStatus, toThreadRow } from "./thread-row";
import { withThreadChanges } from "./thread-store";

const START = "<!-- lifecycle-table:start (generated from TRANSITIONS: lifecycleTableMarkdown) -->";
const END = "<!-- lifecycle-table:end -->";

/** A markdown table's rows as trimmed cells, without its separator row. */
function cells(table: string): string[][] {
  return table
    .trim()
    .split("\n")
    .map((line) =>
      line
        .trim()
        .replace(/^\|/, "")
        .replace(/\|$/, "")
        .split("|")
        .map((cell) => cell.trim()),
    )
    .filter((row) => !row.every((cell) => /^-+$/.test(cell)));
}

describe("the thread lifecycle table", () => {
  it("names only the statuses of lib/contracts/thread.ts", () => {
    for (const transition of Object.values(TRANSITIONS)) {
      expect(THREAD_STATUSES).toContain(transition.to);
      for (const from of transition.from) expect(THREAD_STATUSES).toContain(from);
    }
  });

  it("lets nothing leave terminated, and only terminate enter it", () => {
    for (const [name, transition] of Object.entries(TRANSITIONS)) {
      expect(allows(name as keyof typeof TRANSITIONS, "terminated"), name).toBe(false);
      if (transition.to === "terminated") expect(name).toBe("terminate");
    }
  });

  it("classifies every status once", () => {
    const classes = THREAD_STATUSES.map((status) => [
      status,
      isActive(status)
        ? "active"
        : isSessionEnded(status)
          ? "ended"
          : isTerminated(status)
            ? "terminated"
            : "idle",
    ]);
    expect(Object.fromEntries(classes)).toEqual({
      idle: "idle",
      queued: "active",
      running: "active",
      // Parked for a human's decision, like idle: no work ahead until one comes.
      waiting_approval: "idle",
      completed: "ended",
      failed: "ended",
      stopped: "ended",
      terminated: "terminated",
    });
  });

  it("is printed in docs/runtime.md right after the layer diagram, as the code has it", async () => {
    const doc = await readFile(path.resolve(import.meta.dirname, "../../docs/runtime.md"), "utf8");
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    const layers = doc.indexOf("## Layers");
    const lifecycle = doc.indexOf("## Thread lifecycle");
    expect(layers, "docs/runtime.md opens with its layer diagram").toBeGreaterThan(-1);
    expect(doc.indexOf("\n## ", layers + 1) + 1, "the lifecycle section follows the layers").toBe(lifecycle);
    expect(start, `docs/runtime.md lacks ${START}`).toBeGreaterThan(lifecycle);
    expect(doc.indexOf("\n## ", lifecycle + 1)).toBeGreaterThan(end);
    // Compared cell by cell: Biome pads the printed table's columns.
    const printed = cells(doc.slice(start + START.length, end));
    expect(printed, "docs/runtime.md's lifecycle table is stale: paste lifecycleTableMarkdown()").toEqual(
      cells(lifecycleTableMarkdown()),
    );
    expect(printed.map((row) => row[0])).toEqual([
      "Transition",
      ...Object.keys(TRANSITIONS).map((name) => `\`${name}\``),
    ]);
  });
});

describe("applyLocked refuses a transition from a status outside its table row", () => {
  /** A transaction that must never be used: a refused transition writes nothing. */
  const untouchable = new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`a refused transition used the transaction (${String(property)})`);
      },
    },
  ) as Parameters<typeof applyLocked>[0];
  const updates = (Object.keys(TRANSITIONS) as (keyof typeof TRANSITIONS)[]).filter(
    (name): name is Parameters<typeof applyLocked>[2] =>
      TRANSITIONS[name].from.length > 0 && name !== "terminate",
  );

  it("throws TransitionRefusedError, naming the thread, the transition and the status, before any SQL", () => {
    expect(updates.length).toBeGreaterThan(10);
    let refused = 0;
    for (const name of updates) {
      for (const status of THREAD_STATUSES) {
        if (allows(name, status)) continue;
        const locked = { id: "thread-1", status } as Parameters<typeof applyLocked>[1];
        expect(() => applyLocked(untouchable, locked, name, {}), `${name} from ${status}`).toThrow(
          new TransitionRefusedError(name, "thread-1", status),
        );
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(50);
    expect(new TransitionRefusedError("park", "t", "idle").message).toBe(
      "Thread t: transition park does not apply from status idle.",
    );
  });
});

describe("finished_at of a row computed without reading it back (withThreadChanges, issue 41)", () => {
  const row = (status: ThreadStatus, finishedAt: number | null) =>
    toThreadRow({ id: "t", status, created_at: 1, updated_at: 2, finished_at: finishedAt, execution: {} });

  it("is the write's time when work ends, null at work, else as it was (as the trigger writes it)", () => {
    expect(withThreadChanges(row("running", null), { status: "completed" }, 90).finished_at).toBe(90);
    expect(withThreadChanges(row("waiting_approval", null), { status: "stopped" }, 90).finished_at).toBe(90);
    expect(withThreadChanges(row("completed", 5), { status: "terminated" }, 90).finished_at).toBe(5);
    expect(withThreadChanges(row("idle", 5), { status: "stopped" }, 90).finished_at).toBe(5);
    expect(withThreadChanges(row("completed", 5), { status: "running" }, 90).finished_at).toBeNull();
    expect(withThreadChanges(row("stopped", 5), { status: "stopped" }, 90).finished_at).toBe(5);
    expect(withThreadChanges(row("completed", 5), { statusText: "x" }, 90).finished_at).toBe(5);
  });
});
