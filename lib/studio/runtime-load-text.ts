// The studio status line's summary of the runtime's load (GET /api/health `load`): short enough for
// the status line at 1280 px, with the whole picture in its tooltip.
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import { plural } from "@/lib/text/plural";

export interface RuntimeLoadText {
  /** The status line's words, e.g. "3 running · 12 waiting (oldest 4 s)". */
  short: string;
  /** Everything, one fact per line, for the tooltip. */
  full: string;
  /** True while threads wait for a scheduler: the line is drawn as a warning after a few seconds. */
  backlogged: boolean;
}

/** Seconds (or minutes) a human reads at a glance. */
function waited(ms: number): string {
  if (ms < 1000) return "under 1 s";
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

const BACKLOG_AFTER_MS = 5000;

export function runtimeLoadText(load: RuntimeLoad): RuntimeLoadText {
  const { threads, this_process: here, model_calls: calls } = load;
  const parts: string[] = [];
  if (threads.running > 0) parts.push(`${threads.running} running`);
  if (threads.waiting > 0) {
    parts.push(
      `${threads.waiting} waiting${threads.oldest_waiting_ms === null ? "" : ` (oldest ${waited(threads.oldest_waiting_ms)})`}`,
    );
  }
  if (calls.in_flight > 0) parts.push(plural(calls.in_flight, "model call"));
  if (calls.queued > 0) parts.push(`${calls.queued} queued for a provider`);
  const troubled = calls.providers.filter((endpoint) => endpoint.state !== "ok");
  for (const endpoint of troubled)
    parts.push(`${endpoint.provider} ${endpoint.state === "paused" ? "rate limited" : "unavailable"}`);
  const providers = Object.entries(calls.by_provider)
    .map(([provider, count]) => `${provider} ${count}`)
    .join(", ");
  const queuedFor = Object.entries(calls.queued_by_provider)
    .map(([provider, count]) => `${provider} ${count}`)
    .join(", ");
  const full = [
    `Threads running: ${threads.running} (this server holds ${here.running} of up to ${here.max_claimed})`,
    `Steps working on this server: ${here.steps_active} of ${here.concurrency} at once`,
    `Threads waiting for a scheduler: ${threads.waiting}${
      threads.oldest_waiting_ms === null ? "" : `, the oldest for ${waited(threads.oldest_waiting_ms)}`
    }`,
    `Model calls in flight on this server: ${calls.in_flight}${providers ? ` (${providers})` : ""}`,
    ...(calls.queued > 0
      ? [`Model calls queued for a provider's limit: ${calls.queued} (${queuedFor})`]
      : []),
    ...calls.providers.map(endpointLine),
    ...(load.commits.grouped ? [groupCommitLine(load.commits)] : []),
  ].join("\n");
  return {
    short: parts.length ? `Runtime: ${parts.join(" · ")}` : "Runtime idle",
    full,
    backlogged: threads.waiting > 0 && (threads.oldest_waiting_ms ?? 0) >= BACKLOG_AFTER_MS,
  };
}

/** One provider endpoint's limit and trouble, for the tooltip. */
function endpointLine(endpoint: RuntimeLoad["model_calls"]["providers"][number]): string {
  const limit =
    endpoint.limit < endpoint.max_limit
      ? `limit lowered to ${endpoint.limit} of ${endpoint.max_limit} by rate limits`
      : `limit ${endpoint.limit}`;
  const inSeconds = endpoint.retry_in_ms === null ? "" : ` for ${waited(endpoint.retry_in_ms)}`;
  const state =
    endpoint.state === "paused"
      ? `, rate limited: paused${inSeconds}`
      : endpoint.state === "unavailable"
        ? `, unavailable: retrying in ${waited(endpoint.retry_in_ms ?? 0)}`
        : "";
  const pace = endpoint.pace_per_second === null ? "" : `, paced at ${endpoint.pace_per_second}/s`;
  return `${endpoint.label}: ${endpoint.in_flight} in flight, ${endpoint.queued} queued, ${limit}${pace}${state}`;
}

/** Group commit on this server: how many step commits shared a transaction, and how many at most. */
function groupCommitLine(commits: RuntimeLoad["commits"]): string {
  if (commits.batches === 0) return "Step commits grouped on this server: none yet";
  const mean = commits.parts / commits.batches;
  return `Step commits grouped on this server: ${commits.parts} in ${plural(commits.batches, "transaction")} (${mean.toFixed(1)} on average, largest ${commits.largest})`;
}
