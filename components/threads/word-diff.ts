// A word diff of what a replayed request had where the recording had something else (docs/live.md
// "Replay"): the parts both share, and the words removed and added, in order. Pure; jsdiff's
// `diffWords` does the diffing (the `diff` package, pinned: see docs/live.md "Replay").
import { diffWords } from "diff";

export interface WordDiffPart {
  kind: "same" | "removed" | "added";
  text: string;
}

/** A divergence value as text: a string as it is, anything else as indented JSON. */
export function divergenceText(value: unknown): string {
  if (value === undefined) return "(nothing)";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** The word diff from `recorded` to `replayed`. */
export function wordDiff(recorded: string, replayed: string): WordDiffPart[] {
  return diffWords(recorded, replayed).map((change) => ({
    kind: change.added ? "added" : change.removed ? "removed" : "same",
    text: change.value,
  }));
}
