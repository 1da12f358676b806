// The names of runs made from other runs (issue 41): "Fork of <name>" and "Replay of <name>", where
// <name> is the original run's own name — a fork of a replay of a fork is still "Fork of <name>",
// never "<name> (fork) (replay) (fork)". The thread's forked_from / replay_of link keeps the lineage.

const PREFIXES = ["Fork of ", "Replay of "] as const;
const SUFFIXES = [" (fork)", " (replay)"] as const;

/** The name a run made from others started with: every "Fork of"/"Replay of" and "(fork)"/"(replay)" taken off. */
export function originalRunName(name: string): string {
  let base = name.trim();
  for (let changed = true; changed; ) {
    changed = false;
    for (const prefix of PREFIXES) {
      if (base.startsWith(prefix) && base.length > prefix.length) {
        base = base.slice(prefix.length).trim();
        changed = true;
      }
    }
    for (const suffix of SUFFIXES) {
      if (base.endsWith(suffix) && base.length > suffix.length) {
        base = base.slice(0, -suffix.length).trim();
        changed = true;
      }
    }
  }
  return base;
}

/** The name of a fork or a replay of a run named `sourceName`. */
export function derivedRunName(kind: "fork" | "replay", sourceName: string): string {
  return `${kind === "fork" ? "Fork" : "Replay"} of ${originalRunName(sourceName)}`;
}
