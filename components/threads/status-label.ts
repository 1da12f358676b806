// The words a person reads for a thread status, in one place: badges, filter chips, the tree's and
// the timeline's labels and the diff view all show these instead of the wire value
// (`waiting_approval`), which stays in data attributes and URLs.
import type { ThreadStatus } from "@/lib/contracts/thread";

const STATUS_LABELS: Record<ThreadStatus, string> = {
  idle: "idle",
  queued: "queued",
  running: "running",
  waiting_approval: "waiting for approval",
  completed: "completed",
  failed: "failed",
  stopped: "stopped",
  terminated: "terminated",
};

/** The label of a status; an unknown one (a newer server) is shown with its underscores as spaces. */
export function threadStatusLabel(status: string): string {
  return STATUS_LABELS[status as ThreadStatus] ?? status.replaceAll("_", " ");
}

/**
 * What a working child's registry entry says beyond its thread's status: a status text its session
 * set (sessionStatus, "reviewing"), shown beside the badge. A registry status that is itself a thread
 * status ("completed" left from an earlier session while a message resumed the child) says nothing
 * new, so a resumed child never reads "running completed" (issue 41).
 */
export function registryStatusText(
  threadStatus: ThreadStatus,
  entryStatus: string | undefined,
): string | null {
  if (threadStatus !== "queued" && threadStatus !== "running") return null;
  if (!entryStatus || entryStatus === threadStatus) return null;
  return entryStatus in STATUS_LABELS ? null : entryStatus;
}
