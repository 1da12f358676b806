import { describe, expect, it } from "vitest";
import { emptyGraph, type Graph, type GraphNode } from "@/lib/graph";
import { mergeDocuments } from "./merge";

const model = (id: string, name: string, extra: Record<string, unknown> = {}, x = 0): GraphNode => ({
  id,
  type: "model",
  position: { x, y: 0 },
  data: { definition: { name, provider: "scripted", model: "demo", ...extra } },
});
const note = (id: string, text: string): GraphNode => ({
  id,
  type: "note",
  position: { x: 0, y: 0 },
  data: { text },
});
const doc = (...nodes: GraphNode[]): Graph => ({ ...emptyGraph(), nodes });

const a = model("a", "alpha");
const b = model("b", "beta");
const c = model("c", "gamma");
const base = doc(a, b, c);

describe("mergeDocuments", () => {
  it("combines additions, removals and changes that only one side made", () => {
    const ours = doc(model("a", "alpha", { model: "mine" }), b, note("n1", "ours"));
    const theirs = doc(a, model("b", "beta", { model: "theirs" }), c, note("n2", "theirs"));
    const merged = mergeDocuments(base, ours, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.document.nodes).toEqual([
      model("a", "alpha", { model: "mine" }),
      model("b", "beta", { model: "theirs" }),
      note("n1", "ours"),
      note("n2", "theirs"),
    ]);
    // Their change to b and their note; our removal of c stays (they left c alone).
    expect(merged.theirChanges).toBe(2);
  });

  it("takes their removal of a node we left alone", () => {
    const merged = mergeDocuments(base, doc(a, b, c, note("n1", "x")), doc(a, c));
    expect(merged.document.nodes.map((node) => node.id)).toEqual(["a", "c", "n1"]);
    expect(merged.conflicts).toEqual([]);
  });

  it("merges different fields of the same node: their move and our edit both stay", () => {
    const ours = doc(model("a", "alpha", { model: "mine" }), b, c);
    const theirs = doc(model("a", "alpha", {}, 500), b, c);
    const merged = mergeDocuments(base, ours, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.document.nodes[0]).toEqual(model("a", "alpha", { model: "mine" }, 500));
  });

  it("keeps ours where both sides changed the same field, and lists the node", () => {
    const ours = doc(model("a", "alpha", { model: "mine" }), b, c);
    const theirs = doc(model("a", "alpha", { model: "theirs" }, 500), b, c);
    const merged = mergeDocuments(base, ours, theirs);
    expect(merged.document.nodes[0]).toEqual(model("a", "alpha", { model: "mine" }, 500));
    expect(merged.conflicts).toEqual([{ nodeId: "a", label: "model alpha", reason: "both-changed" }]);
    // Their move came in; a conflict where ours wins entirely brings nothing of theirs.
    expect(merged.theirChanges).toBe(1);
    const onlyConflict = mergeDocuments(base, ours, doc(model("a", "alpha", { model: "theirs" }), b, c));
    expect(onlyConflict.theirChanges).toBe(0);
    expect(onlyConflict.conflicts).toHaveLength(1);
  });

  it("lets our removal win over their change, and our change win over their removal, and says so", () => {
    const ours = doc(b, model("c", "gamma", { model: "mine" }));
    const theirs = doc(model("a", "alpha", { model: "theirs" }), b);
    const merged = mergeDocuments(base, ours, theirs);
    expect(merged.document.nodes).toEqual([b, model("c", "gamma", { model: "mine" })]);
    expect(merged.conflicts).toEqual([
      { nodeId: "c", label: "model gamma", reason: "they-removed" },
      { nodeId: "a", label: "model alpha", reason: "you-removed" },
    ]);
  });

  it("keeps ours when both sides added a node with the same id", () => {
    const merged = mergeDocuments(emptyGraph(), doc(note("n", "ours")), doc(note("n", "theirs")));
    expect(merged.document.nodes).toEqual([note("n", "ours")]);
    expect(merged.conflicts).toEqual([{ nodeId: "n", label: "note", reason: "both-added" }]);
  });

  it("is the identity when nothing changed on their side, and takes theirs when nothing changed on ours", () => {
    const ours = doc(model("a", "alpha", { model: "mine" }));
    expect(mergeDocuments(base, ours, base).document.nodes).toEqual(ours.nodes);
    expect(mergeDocuments(base, base, ours).document.nodes).toEqual(ours.nodes);
  });

  it("ignores key order when comparing (the server stores documents as jsonb)", () => {
    const reordered = { data: a.data, position: a.position, type: a.type, id: a.id } as GraphNode;
    const merged = mergeDocuments(
      base,
      doc(model("a", "alpha", { model: "mine" }), b, c),
      doc(reordered, b, c),
    );
    expect(merged.conflicts).toEqual([]);
    expect(merged.theirChanges).toBe(0);
  });
});
