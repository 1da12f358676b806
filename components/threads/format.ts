// Pure formatting for the live views: durations, token counts and cost, kept apart so they are easy to test.

/** `1h 02m`, `3m 05s`, `12s` for a duration in microseconds. */
export function formatDuration(microseconds: number): string {
  const seconds = Math.max(0, Math.floor(microseconds / 1_000_000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, "0")}m`;
  if (minutes > 0) return `${minutes}m ${String(rest).padStart(2, "0")}s`;
  return `${rest}s`;
}

/** `950`, `12.3k`, `4.1M` tokens. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** Dollars with enough digits to tell small runs apart: `$0.0042`, `$1.25`. */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** The time of day a thread was created, from microseconds. */
export function formatCreatedAt(microseconds: number): string {
  return new Date(microseconds / 1000).toLocaleString();
}

/** A message's `tool_calls` is JSON text on the wire; an unreadable value is shown raw rather than dropped. */
export interface ToolCallView {
  id: string;
  name: string;
  args: string;
}

export function parseToolCalls(raw: string | null): ToolCallView[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [{ id: "raw", name: "(unreadable)", args: raw }];
    return value.map((call: unknown, index) => {
      const record = (call ?? {}) as Record<string, unknown>;
      const fn = (record.function ?? {}) as Record<string, unknown>;
      const name =
        typeof record.name === "string" ? record.name : typeof fn.name === "string" ? fn.name : "?";
      const args = record.arguments ?? record.args ?? fn.arguments ?? record.input ?? {};
      return {
        id: typeof record.id === "string" ? record.id : String(index),
        name,
        args: typeof args === "string" ? args : JSON.stringify(args),
      };
    });
  } catch {
    return [{ id: "raw", name: "(unreadable)", args: raw }];
  }
}

/**
 * The agent a message handed the thread to: a successful handoff tool result (`Handoff complete`)
 * records its target in `metadata.handoff.agent` (runtime/engine/tool-executor.ts). Null otherwise.
 */
export function handoffTargetOf(message: {
  role: string;
  tool_status: string | null;
  metadata: Record<string, unknown>;
}): string | null {
  if (message.role !== "tool" || message.tool_status !== "success") return null;
  const handoff = message.metadata.handoff;
  if (typeof handoff !== "object" || handoff === null) return null;
  const agent = (handoff as Record<string, unknown>).agent;
  return typeof agent === "string" && agent !== "" ? agent : null;
}

/** When an effect is due relative to now: `in 4m 10s`, `due now`, `2m 05s ago` (µs and ms inputs). */
export function formatDue(runAtMicroseconds: number, nowMilliseconds: number): string {
  const delta = runAtMicroseconds - nowMilliseconds * 1000;
  if (Math.abs(delta) < 1_000_000) return "due now";
  return delta > 0 ? `in ${formatDuration(delta)}` : `${formatDuration(-delta)} ago`;
}
