// Name rules shared by schemas and validation rules: what a definition, env variable or hook id may be called.

/** Tool, prompt and agent names reach model providers as function names (OpenAI and Anthropic accept this set). */
export const CALLABLE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Model names are never sent to a model but become file names on export (`agents/models/<name>.ts`). */
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

/** A plausible environment variable name, as POSIX shells accept it. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Hook ids: "snake_case (lowercase letters, numbers, underscores, starting with a letter)". */
export const HOOK_ID_PATTERN = /^[a-z][a-z0-9_]*$/;

/** Lifecycle tools the runtime injects for resumable subagents (spec §7.7); definitions may not take these names. */
export const RESERVED_RUNTIME_TOOL_NAMES = ["subagent_create", "subagent_message"] as const;

export function isReservedRuntimeToolName(name: string): boolean {
  return (RESERVED_RUNTIME_TOOL_NAMES as readonly string[]).includes(name);
}

/** Levenshtein distance, used to suggest the property or name a user probably meant. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    for (let column = 1; column <= b.length; column++) {
      const substitution = previous[column - 1]! + (a[row - 1] === b[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The closest candidate if it is close enough to be a typo (case-insensitive), else undefined. */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(1, Math.floor(input.length / 3));
  return bestDistance <= tolerance ? best : undefined;
}
