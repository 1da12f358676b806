// Model requests are logged in full for GET /threads/:id/logs, but a thread's context mostly grows
// by a few messages per step: storing each request whole costs O(history) per step. A request is
// stored as a delta against the previous request of the same thread and side — the number of
// leading messages it shares with it, then its own tail, and its tools only when they changed —
// and `resolveRequests` rebuilds every request exactly. Pure.

export interface LoggedRequest {
  messages: unknown[];
  tools: unknown[];
}

/** What is stored in model_calls.request. */
export type StoredRequest =
  | LoggedRequest
  | {
      /** The model call whose request this one extends. */
      base: string;
      /** How many leading messages of the base request this request repeats. */
      keep: number;
      /** The messages after those. */
      tail: unknown[];
      /** Present only when the tools differ from the base request's. */
      tools?: unknown[];
    };

/** The previous request of a thread and side, as the encoder remembers it. */
export interface RequestMemory {
  id: string;
  messages: readonly unknown[];
  tools: readonly unknown[];
}

export function encodeRequest(
  id: string,
  request: LoggedRequest,
  previous: RequestMemory | undefined,
): { stored: StoredRequest; memory: RequestMemory } {
  const memory = { id, messages: request.messages, tools: request.tools };
  if (!previous) return { stored: request, memory };
  // Compared as JSON values, not re-serialised: the shared prefix is most of a long history.
  let keep = 0;
  const limit = Math.min(previous.messages.length, request.messages.length);
  while (keep < limit && sameJsonValue(previous.messages[keep], request.messages[keep])) keep += 1;
  if (keep === 0) return { stored: request, memory };
  return {
    stored: {
      base: previous.id,
      keep,
      tail: request.messages.slice(keep),
      ...(sameJsonValue(request.tools, previous.tools) ? {} : { tools: request.tools }),
    },
    memory,
  };
}

/** Whether two values serialise to the same JSON (object keys in any order; undefined members absent). */
export function sameJsonValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) {
    return JSON.stringify(left) === JSON.stringify(right);
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index += 1) {
      // JSON.stringify writes undefined array items as null.
      if (!sameJsonValue(left[index] ?? null, right[index] ?? null)) return false;
    }
    return true;
  }
  if (typeof (left as { toJSON?: unknown }).toJSON === "function")
    return JSON.stringify(left) === JSON.stringify(right);
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  let leftKeys = 0;
  for (const key in leftRecord) {
    if (!Object.hasOwn(leftRecord, key) || leftRecord[key] === undefined) continue;
    leftKeys += 1;
    if (!Object.hasOwn(rightRecord, key) || !sameJsonValue(leftRecord[key], rightRecord[key])) return false;
  }
  let rightKeys = 0;
  for (const key in rightRecord) {
    if (Object.hasOwn(rightRecord, key) && rightRecord[key] !== undefined) rightKeys += 1;
  }
  return leftKeys === rightKeys;
}

/** Rebuilds full requests; `calls` in any order, each base present (a missing base gives null). */
export function resolveRequests(
  calls: readonly { id: string; request: unknown }[],
): Map<string, LoggedRequest | null> {
  const stored = new Map(calls.map((call) => [call.id, call.request as StoredRequest | null]));
  const resolved = new Map<string, LoggedRequest | null>();
  const resolve = (id: string): LoggedRequest | null => {
    if (resolved.has(id)) return resolved.get(id) ?? null;
    // Iterative along the chain of bases, so long threads cannot overflow the stack.
    const chain: string[] = [];
    let cursor: string | undefined = id;
    while (cursor !== undefined && !resolved.has(cursor)) {
      chain.push(cursor);
      const entry = stored.get(cursor);
      cursor = entry && "base" in entry ? entry.base : undefined;
      if (cursor !== undefined && chain.includes(cursor)) break;
    }
    for (const link of chain.reverse()) {
      const entry = stored.get(link);
      if (!entry || typeof entry !== "object") {
        resolved.set(link, null);
        continue;
      }
      if (!("base" in entry)) {
        resolved.set(link, { messages: entry.messages ?? [], tools: entry.tools ?? [] });
        continue;
      }
      const base = resolved.get(entry.base);
      resolved.set(
        link,
        base
          ? {
              messages: [...base.messages.slice(0, entry.keep), ...entry.tail],
              tools: entry.tools ?? base.tools,
            }
          : null,
      );
    }
    return resolved.get(id) ?? null;
  };
  for (const call of calls) resolve(call.id);
  return resolved;
}
