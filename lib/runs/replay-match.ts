// Whether a replayed model request still matches the recorded one (docs/runtime.md "Replay"). Pure:
// the runtime hands in both requests as logged (`{ messages, tools }` JSON values) and this says
// whether the recording may answer, or where the two first differ.
//
// Ids are not content: a replay creates new threads, messages and files, so every UUID in either
// request is replaced by its order of first appearance ("<id:0>", "<id:1>", …) before comparing. Two
// requests that name the same things in the same places match; a request that names a different
// thread where the recording named another one already seen does not. Everything else (roles, text,
// tool calls and their arguments, tool schemas) must be equal as JSON values (key order aside) —
// except the status each line of the child registry gives (`…; status: running)`,
// runtime/subagents/branches.ts registrySystemMessage): which of a parent's running children have
// finished when it next calls its model is timing, not design, so a replay ignores it.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A child registry line's status (the registry lines' only timing-dependent part). */
const REGISTRY_STATUS = /(\(reference: [^;\n]*;[^\n]*; )status: [a-z_]+\)/g;

/** A string with the registry lines' statuses masked (see above). */
export function withoutRegistryStatuses(text: string): string {
  return text.replace(REGISTRY_STATUS, "$1status: *)");
}

/** A JSON value with every UUID in its strings replaced by its order of first appearance. */
export function withNumberedIds(value: unknown, seen: Map<string, number> = new Map()): unknown {
  if (typeof value === "string") {
    return withoutRegistryStatuses(value).replace(UUID, (id) => {
      const key = id.toLowerCase();
      let index = seen.get(key);
      if (index === undefined) {
        index = seen.size;
        seen.set(key, index);
      }
      return `<id:${index}>`;
    });
  }
  if (Array.isArray(value)) return value.map((item) => withNumberedIds(item ?? null, seen));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) out[key] = withNumberedIds(member, seen);
    }
    return out;
  }
  return value;
}

/** Where two JSON values first differ: a path (`messages[3].content`) and both values there. */
export interface RequestDifference {
  path: string;
  recorded: unknown;
  replayed: unknown;
}

/** The first difference between two values (depth first, arrays by position), or null when equal. */
export function firstDifference(recorded: unknown, replayed: unknown, path = ""): RequestDifference | null {
  if (Object.is(recorded, replayed)) return null;
  const bothArrays = Array.isArray(recorded) && Array.isArray(replayed);
  const bothObjects =
    !bothArrays &&
    recorded !== null &&
    replayed !== null &&
    typeof recorded === "object" &&
    typeof replayed === "object" &&
    !Array.isArray(recorded) &&
    !Array.isArray(replayed);
  if (bothArrays) {
    const left = recorded as unknown[];
    const right = replayed as unknown[];
    const shared = Math.min(left.length, right.length);
    for (let index = 0; index < shared; index += 1) {
      const found = firstDifference(left[index], right[index], `${path}[${index}]`);
      if (found) return found;
    }
    if (left.length === right.length) return null;
    return {
      path: `${path}[${shared}]`,
      recorded: left[shared] ?? "(nothing)",
      replayed: right[shared] ?? "(nothing)",
    };
  }
  if (bothObjects) {
    const left = recorded as Record<string, unknown>;
    const right = replayed as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    for (const key of keys) {
      const found = firstDifference(left[key], right[key], path === "" ? key : `${path}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return { path: path === "" ? "(request)" : path, recorded, replayed };
}

/** Longest string kept of a differing value in a divergence report (the full requests are in the logs). */
const EXCERPT_CHARS = 300;
/** Unchanged text kept on each side of the change when two differing strings are cut. */
const CONTEXT_CHARS = 160;
/** Longest changed stretch kept of each string (the rest of a long change is cut at its end). */
const CHANGE_CHARS = 1200;

function excerpt(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > EXCERPT_CHARS ? `${value.slice(0, EXCERPT_CHARS)}…` : value;
  if (value === undefined) return "(nothing)";
  const text = JSON.stringify(value);
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : value;
}

/**
 * Two differing strings cut to the change itself: the text they share before and after it is cut
 * to CONTEXT_CHARS on each side (marked "…"), so a change at the end of a long prompt — " Always be
 * brief." appended — is in both excerpts rather than cut away from both at the same prefix.
 */
export function excerptChange(recorded: string, replayed: string): { recorded: string; replayed: string } {
  const shortest = Math.min(recorded.length, replayed.length);
  let prefix = 0;
  while (prefix < shortest && recorded[prefix] === replayed[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    recorded[recorded.length - 1 - suffix] === replayed[replayed.length - 1 - suffix]
  )
    suffix += 1;
  let from = Math.max(0, prefix - CONTEXT_CHARS);
  // Start at a word: past the first space after the cut (when there is one before the change).
  if (from > 0) {
    const space = recorded.indexOf(" ", from);
    if (space !== -1 && space < prefix) from = space + 1;
  }
  const cut = (text: string) => {
    const changeEnd = text.length - suffix;
    const cappedEnd = Math.min(changeEnd, prefix + CHANGE_CHARS);
    const to = cappedEnd < changeEnd ? cappedEnd : Math.min(text.length, changeEnd + CONTEXT_CHARS);
    return `${from > 0 ? "…" : ""}${text.slice(from, to)}${to < text.length ? "…" : ""}`;
  };
  return { recorded: cut(recorded), replayed: cut(replayed) };
}

/**
 * Compares a replayed request with the recorded one: null when the recording may answer it,
 * otherwise the first difference (two strings cut around their change, other values to an excerpt).
 */
export function compareRequests(recorded: unknown, replayed: unknown): RequestDifference | null {
  // JSON round trip first: the recording went through it (undefined members gone, dates as strings).
  const normalise = (value: unknown) => withNumberedIds(JSON.parse(JSON.stringify(value ?? null)));
  const found = firstDifference(normalise(recorded), normalise(replayed));
  if (!found) return null;
  if (typeof found.recorded === "string" && typeof found.replayed === "string")
    return { path: found.path, ...excerptChange(found.recorded, found.replayed) };
  return { path: found.path, recorded: excerpt(found.recorded), replayed: excerpt(found.replayed) };
}
