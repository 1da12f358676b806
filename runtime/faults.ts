// Crash points for fault-injection tests: with TANDEM_CRASH_AT="point@agent#n" the process SIGKILLs
// itself the n-th time (default 1) it reaches `point` while running a thread of `agent` (any agent
// when omitted). Durability tests use it to die at exact step boundaries and check what survives.
// Unset (always, outside those tests) it costs one comparison.
export type CrashPointName =
  | "before_model_call"
  | "after_model_call"
  | "before_tool_commit"
  | "after_tool_commit"
  | "before_parent_wake"
  | "before_terminal_commit"
  | "after_terminal_commit"
  // A post that stored its message and started the run (`postRunningInput`), before its step starts.
  | "after_post_commit"
  // An eval case's simulated user or judge answered and its call is logged, before the answer is
  // used (runtime/services/eval-service.ts); the case thread's agent names it.
  | "after_eval_call"
  // Effects (runtime/effects/): the effect's name stands where an agent's would.
  | "effect_started"
  | "before_effect_commit";

interface CrashSpec {
  point: string;
  agent: string | null;
  occurrence: number;
}

export function parseCrashSpec(raw: string | undefined): CrashSpec | null {
  const match = raw?.trim().match(/^([a-z_]+)(?:@([A-Za-z0-9_-]+))?(?:#(\d+))?$/);
  if (!match) return null;
  return { point: match[1]!, agent: match[2] ?? null, occurrence: Number(match[3] ?? 1) };
}

const spec = parseCrashSpec(process.env.TANDEM_CRASH_AT);
let reached = 0;

export function crashPoint(point: CrashPointName, agentName: string): void {
  if (!spec || spec.point !== point || (spec.agent !== null && spec.agent !== agentName)) return;
  reached += 1;
  if (reached !== spec.occurrence) return;
  process.stderr.write(`[tandem] crash point ${point} reached for ${agentName}: killing the process\n`);
  process.kill(process.pid, "SIGKILL");
}
