import { describe, expect, it } from "vitest";
import { emptyGraph, type Graph } from "@/lib/graph";
import { decideDraft, draftKey, isStale, makeDraft, relativeTime, sameDocument } from "./draft";

const server: Graph = {
  ...emptyGraph(),
  nodes: [{ id: "n", type: "note", position: { x: 1, y: 2 }, data: { text: "saved" } }],
};
const edited: Graph = {
  ...emptyGraph(),
  nodes: [{ id: "n", type: "note", position: { x: 1, y: 2 }, data: { text: "edited" } }],
};

describe("decideDraft", () => {
  it("has nothing to restore when nothing is stored", () => {
    expect(decideDraft(undefined, "p1", { document: server, version: 3 })).toEqual({ kind: "none" });
  });

  it("restores a draft that differs from the server document edited from the current version", () => {
    const draft = makeDraft("p1", edited, 3, 1000);
    const decision = decideDraft(JSON.parse(JSON.stringify(draft)), "p1", { document: server, version: 3 });
    expect(decision).toEqual({ kind: "restore", draft, staleBase: null });
  });

  it("marks a draft edited from an older version as stale, so the next save is a conflict", () => {
    const draft = makeDraft("p1", edited, 2, 1000);
    expect(decideDraft(draft, "p1", { document: server, version: 3 })).toMatchObject({
      kind: "restore",
      staleBase: 2,
    });
  });

  it("drops a draft equal to the server document, whatever its key order", () => {
    const reordered = {
      nodes: [{ data: { text: "saved" }, position: { y: 2, x: 1 }, type: "note", id: "n" }],
      version: 1,
    };
    const draft = { ...makeDraft("p1", server, 2, 1000), document: reordered };
    expect(decideDraft(draft, "p1", { document: server, version: 3 })).toEqual({
      kind: "discard",
      reason: "same-as-saved",
    });
  });

  it("drops unreadable records and records of another project", () => {
    expect(decideDraft({ kind: "tandem/studio-draft" }, "p1", { document: server, version: 1 })).toEqual({
      kind: "discard",
      reason: "unreadable",
    });
    const broken = { ...makeDraft("p1", edited, 1, 0), document: { nodes: [{ id: "x" }] } };
    expect(decideDraft(broken, "p1", { document: server, version: 1 })).toMatchObject({
      reason: "unreadable",
    });
    expect(decideDraft(makeDraft("p2", edited, 1, 0), "p1", { document: server, version: 1 })).toEqual({
      kind: "discard",
      reason: "other-project",
    });
  });
});

describe("isStale", () => {
  it("is stale only when both versions are known and differ", () => {
    expect(isStale(2, 3)).toBe(true);
    expect(isStale(3, 3)).toBe(false);
    expect(isStale(null, 3)).toBe(false);
    expect(isStale(4, 3)).toBe(true);
  });
});

describe("sameDocument and draftKey", () => {
  it("compares by content", () => {
    expect(sameDocument(server, structuredClone(server))).toBe(true);
    expect(sameDocument(server, edited)).toBe(false);
    expect(draftKey("abc")).toBe("tandem:studio-draft:abc");
  });
});

describe("relativeTime", () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);
  it.each([
    [10_000, "a moment ago"],
    [60_000, "1 minute ago"],
    [5 * 60_000, "5 minutes ago"],
    [60 * 60_000, "1 hour ago"],
    [3 * 3600_000, "3 hours ago"],
    [24 * 3600_000, "yesterday"],
    [3 * 86_400_000, "3 days ago"],
    [30 * 86_400_000, "2026-10-27"],
  ])("%i ms ago reads %s", (age, text) => {
    expect(relativeTime(now - age, now)).toBe(text);
  });
});
