// Aligning two runs (two thread trees) message by message and child by child, for
// `GET /api/threads/diff` and the diff view. Pure: the runtime loads the trees
// (runtime/services/thread-diff.ts) and this decides what is the same.
//
// Representation: `steps` is one flat list. A thread's top-level messages are aligned by position;
// its children are paired by spawn order (the k-th child of `a` with the k-th child of `b`), and a
// pair's steps follow the step that holds the call that spawned it (the earlier of the two sides),
// with `path` naming the child pair from the root ([] the roots, [0] their first children, [0, 1]
// the second child of those). `children` lists every pair with its path. `first_divergence` is the
// index of the first step whose `same` is false, or null.
//
// Compared: role, side, text, the name of a tool result, its status, tool calls (name and
// arguments, parsed as JSON so key order and spacing do not count), attachment paths and whether
// the message is silent. Ignored: ids, sequence numbers, timestamps, tool call ids. Thread ids in a
// text (a subagent tool's "reference: <id>") are replaced by their place in the tree first, so two
// runs that spawned children at the same places read the same.

export interface RunMessage {
  id: string;
  thread_id: string;
  seq: number;
  role: "system" | "user" | "assistant" | "tool";
  side: "a" | "b" | null;
  content: string | null;
  name: string | null;
  tool_calls: readonly { id: string; name: string; arguments: string }[] | null;
  tool_call_id: string | null;
  tool_status: "success" | "error" | null;
  silent: boolean;
  attachments: readonly string[];
}

export interface RunThreadSummary {
  thread_id: string;
  agent: string;
  name: string | null;
  status: string;
}

export interface RunTree {
  thread: RunThreadSummary;
  /** Top-level messages in order. */
  messages: readonly RunMessage[];
  /** Children in spawn order, with the tool call that spawned each (null when unknown). */
  children: readonly { spawnCallId: string | null; tree: RunTree }[];
}

export type DiffField =
  | "presence"
  | "role"
  | "side"
  | "content"
  | "name"
  | "tool_calls"
  | "tool_status"
  | "attachments"
  | "silent";

export interface DiffStep {
  index: number;
  a: RunMessage | null;
  b: RunMessage | null;
  same: boolean;
  /** The child pair the step belongs to ([] for the roots). */
  path: number[];
  /** What differs (empty when `same`). */
  differences: DiffField[];
}

export interface DiffChildPair {
  path: number[];
  a: RunThreadSummary | null;
  b: RunThreadSummary | null;
  /** The index of the pair's first step (null when neither child has a message). */
  first_step: number | null;
}

export interface RunDiff {
  steps: DiffStep[];
  first_divergence: number | null;
  children: DiffChildPair[];
}

/** Every thread id of a tree mapped to its place ("thread", "thread/0", "thread/0/1"). */
function placesOf(tree: RunTree | null, path = "thread", into = new Map<string, string>()) {
  if (!tree) return into;
  into.set(tree.thread.thread_id, `<${path}>`);
  tree.children.forEach((child, index) => {
    placesOf(child.tree, `${path}/${index}`, into);
  });
  return into;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export function normaliseIds(text: string | null, places: ReadonlyMap<string, string>): string | null {
  if (text === null) return null;
  return text.replace(UUID, (id) => places.get(id.toLowerCase()) ?? id);
}

/** JSON with sorted keys (arguments that differ only in key order or spacing compare equal). */
export function canonicalJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const sort = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sort);
    if (item !== null && typeof item === "object") {
      return Object.fromEntries(
        Object.keys(item)
          .sort()
          .map((key) => [key, sort((item as Record<string, unknown>)[key])]),
      );
    }
    return item;
  };
  return JSON.stringify(sort(value));
}

/** The fields in which two messages differ, each read with its run's thread ids replaced. */
export function messageDifferences(
  a: RunMessage | null,
  b: RunMessage | null,
  placesA: ReadonlyMap<string, string> = new Map(),
  placesB: ReadonlyMap<string, string> = new Map(),
): DiffField[] {
  if (!a || !b) return a === b ? [] : ["presence"];
  const differences: DiffField[] = [];
  if (a.role !== b.role) differences.push("role");
  if (a.side !== b.side) differences.push("side");
  if (normaliseIds(a.content, placesA) !== normaliseIds(b.content, placesB)) differences.push("content");
  if (a.name !== b.name) differences.push("name");
  const calls = (message: RunMessage, places: ReadonlyMap<string, string>) =>
    JSON.stringify(
      (message.tool_calls ?? []).map((call) => [
        call.name,
        normaliseIds(canonicalJson(call.arguments), places),
      ]),
    );
  if (calls(a, placesA) !== calls(b, placesB)) differences.push("tool_calls");
  if (a.tool_status !== b.tool_status) differences.push("tool_status");
  if (a.attachments.join("\n") !== b.attachments.join("\n")) differences.push("attachments");
  if (a.silent !== b.silent) differences.push("silent");
  return differences;
}

/** Aligns two runs; see the top of this file for the representation. */
export function diffRuns(a: RunTree | null, b: RunTree | null): RunDiff {
  const placesA = placesOf(a);
  const placesB = placesOf(b);
  const steps: DiffStep[] = [];
  const children: DiffChildPair[] = [];

  const alignThreads = (left: RunTree | null, right: RunTree | null, path: number[]) => {
    const leftMessages = left?.messages ?? [];
    const rightMessages = right?.messages ?? [];
    const count = Math.max(leftMessages.length, rightMessages.length);
    const leftChildren = left?.children ?? [];
    const rightChildren = right?.children ?? [];
    const pairs = Math.max(leftChildren.length, rightChildren.length);
    const spawnedAt = (messages: readonly RunMessage[], callId: string | null | undefined) =>
      callId ? messages.findIndex((message) => message.tool_calls?.some((call) => call.id === callId)) : -1;
    // After which step of this thread each child pair goes (-1: after the last one).
    const positions = Array.from({ length: pairs }, (_, index) => {
      const found = [
        spawnedAt(leftMessages, leftChildren[index]?.spawnCallId),
        spawnedAt(rightMessages, rightChildren[index]?.spawnCallId),
      ].filter((at) => at >= 0);
      return found.length > 0 ? Math.min(...found) : -1;
    });
    const emitPair = (index: number) => {
      const pairPath = [...path, index];
      const pair: DiffChildPair = {
        path: pairPath,
        a: leftChildren[index]?.tree.thread ?? null,
        b: rightChildren[index]?.tree.thread ?? null,
        first_step: null,
      };
      children.push(pair);
      const before = steps.length;
      alignThreads(leftChildren[index]?.tree ?? null, rightChildren[index]?.tree ?? null, pairPath);
      if (steps.length > before) pair.first_step = before;
    };
    for (let position = 0; position < count; position += 1) {
      const left = leftMessages[position] ?? null;
      const right = rightMessages[position] ?? null;
      const differences = messageDifferences(left, right, placesA, placesB);
      steps.push({
        index: steps.length,
        a: left,
        b: right,
        same: differences.length === 0,
        path,
        differences,
      });
      positions.forEach((at, index) => {
        if (at === position) emitPair(index);
      });
    }
    positions.forEach((at, index) => {
      if (at < 0 || at >= count) emitPair(index);
    });
  };

  alignThreads(a, b, []);
  const divergence = steps.find((step) => !step.same);
  return { steps, first_divergence: divergence ? divergence.index : null, children };
}
