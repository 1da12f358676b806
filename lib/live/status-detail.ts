// Why a thread is in its status, in words, for every place that shows a status: the failure text of
// a failed thread, the stop reason of a stopped one (e.g. "Reached max session turns (40 exchanges)"),
// the reported progress of one at work. Pure; reads fields the thread view and the thread list share.
import type { ThreadStatus } from "./events";

export interface StatusFacts {
  status: ThreadStatus;
  stop_reason: string | null;
  failure: string | null;
  status_text: string | null;
}

/** Stop reasons that only repeat the status; not worth a second label. */
const SAYS_ONLY_THE_STATUS: Readonly<Record<string, ThreadStatus>> = {
  "Session completed": "completed",
  "Session failed": "failed",
  Terminated: "terminated",
};

export interface StatusDetail {
  /** The text to show beside the status. */
  text: string;
  /** `problem` for a failure or an involuntary stop (shown in the danger/warning colour), else `info`. */
  tone: "problem" | "info";
}

export function statusDetail(thread: StatusFacts): StatusDetail | null {
  const reason = thread.stop_reason?.trim() || null;
  const meaningfulReason = reason && SAYS_ONLY_THE_STATUS[reason] !== thread.status ? reason : null;
  switch (thread.status) {
    case "failed": {
      const failure = thread.failure?.trim() || null;
      const parts = [failure, meaningfulReason && meaningfulReason !== failure ? meaningfulReason : null];
      const text = parts.filter((part): part is string => part !== null).join(" · ");
      return { text: text || "Failed without a reason", tone: "problem" };
    }
    case "stopped":
      return meaningfulReason ? { text: meaningfulReason, tone: "problem" } : null;
    case "completed":
    case "terminated":
    case "idle":
      return meaningfulReason ? { text: meaningfulReason, tone: "info" } : null;
    case "waiting_approval":
      return { text: "Waiting for a human to approve a tool call", tone: "info" };
    case "queued":
    case "running": {
      const progress = thread.status_text?.trim();
      return progress ? { text: progress, tone: "info" } : null;
    }
  }
}
