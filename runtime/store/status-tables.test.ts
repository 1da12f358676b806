// The small status tables (registry entries, invocations, effects, approvals) and the scheduling
// transitions: a write the table does not allow is refused, the UPDATEs' WHERE checks exactly the
// from-statuses, and docs/runtime.md prints each table as the code has it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APPROVAL_STATES } from "@/lib/contracts/approval";
import { EFFECT_STATUSES } from "@/lib/contracts/effect";
import { APPROVAL_STATE } from "./approval-lifecycle";
import { EFFECT_STATUS } from "./effect-lifecycle";
import { INVOCATION_STATUS } from "./invocation-lifecycle";
import { REGISTRY_STATUS } from "./registry-lifecycle";
import { StatusTransitionRefusedError, statusTable } from "./status-table";
import { schedulingTableMarkdown } from "./thread-scheduling";

/** A markdown table's rows as trimmed cells, without its separator row (Biome pads the printed one). */
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

describe("a status table", () => {
  const table = statusTable("things.status", {
    open: { from: [], to: ["open"], callers: "" },
    close: { from: ["open"], to: ["closed", "dropped"], callers: "" },
    note: { from: { anyBut: ["closed"] }, to: ["*"], callers: "" },
  });

  it("allows a transition only from its from-statuses and only to its to-statuses", () => {
    expect(table.allows("close", "open")).toBe(true);
    expect(table.allows("close", "closed")).toBe(false);
    expect(table.allows("close", "open", "dropped")).toBe(true);
    expect(table.allows("close", "open", "open")).toBe(false);
    expect(table.allows("note", "anything said", "more text")).toBe(true);
    expect(table.allows("note", "closed")).toBe(false);
    expect(table.allows("open", "open")).toBe(false);
  });

  it("refuses to write a status its transition does not write", () => {
    expect(table.target("close", "closed")).toBe("closed");
    expect(() => table.target("close", "open")).toThrow(StatusTransitionRefusedError);
    expect(() => table.target("close", "open")).toThrow("things.status: transition close");
    expect(table.target("note", "working on it")).toBe("working on it");
    expect(() => table.target("note", "")).toThrow(StatusTransitionRefusedError);
  });

  it("checks the from-statuses in SQL", () => {
    expect(table.fromSql("close")).toBe("status IN ('open')");
    expect(table.fromSql("close", "t.status")).toBe("t.status IN ('open')");
    expect(table.fromSql("note")).toBe("status NOT IN ('closed')");
    expect(() => table.fromSql("open")).toThrow("inserts its row");
  });
});

describe("the status tables of runtime/store", () => {
  it("name only statuses the contracts declare (effects, approvals)", () => {
    for (const transition of Object.values(EFFECT_STATUS.transitions))
      for (const status of [...(transition.from as string[]), ...transition.to])
        expect(EFFECT_STATUSES).toContain(status);
    for (const transition of Object.values(APPROVAL_STATE.transitions))
      for (const status of [...(transition.from as string[]), ...transition.to])
        expect(APPROVAL_STATES).toContain(status);
  });

  it("settle an invocation once: only a pending one, only to an outcome", () => {
    expect(INVOCATION_STATUS.fromSql("settle", "i.status")).toBe("i.status IN ('pending')");
    expect(() => INVOCATION_STATUS.target("settle", "pending")).toThrow(StatusTransitionRefusedError);
  });

  it("keep a terminated registry entry terminated", () => {
    for (const name of ["showStatusText", "deliver", "report"] as const)
      expect(REGISTRY_STATUS.allows(name, "terminated")).toBe(false);
    expect(REGISTRY_STATUS.allows("showStatusText", "running", "Reading the docs")).toBe(true);
    expect(() => REGISTRY_STATUS.target("deliver", "completed")).toThrow(StatusTransitionRefusedError);
  });

  it("decide an approval once", () => {
    expect(APPROVAL_STATE.allows("decide", "approved")).toBe(false);
    expect(APPROVAL_STATE.fromSql("decide")).toBe("state IN ('pending')");
  });

  it("are printed in docs/runtime.md as the code has them", async () => {
    const doc = await readFile(path.resolve(import.meta.dirname, "../../docs/runtime.md"), "utf8");
    const printed = (key: string) => {
      const start = doc.indexOf(`<!-- ${key}-table:start`);
      const end = doc.indexOf(`<!-- ${key}-table:end -->`);
      expect(start, `docs/runtime.md lacks the ${key} table`).toBeGreaterThan(-1);
      return cells(doc.slice(doc.indexOf("\n", start), end));
    };
    const stale = (key: string) => `docs/runtime.md's ${key} table is stale: paste it from the code`;
    expect(printed("scheduling"), stale("scheduling")).toEqual(cells(schedulingTableMarkdown()));
    expect(printed("registry"), stale("registry")).toEqual(cells(REGISTRY_STATUS.markdown()));
    expect(printed("invocation"), stale("invocation")).toEqual(cells(INVOCATION_STATUS.markdown()));
    expect(printed("effect"), stale("effect")).toEqual(cells(EFFECT_STATUS.markdown()));
    expect(printed("approval"), stale("approval")).toEqual(cells(APPROVAL_STATE.markdown()));
  });
});
