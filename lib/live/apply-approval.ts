// `approval` events (docs/runtime.md "Approvals"): each carries the approval as it is now — requested
// (pending) or decided — so the live state keeps the latest per id; the panel reads the pending ones.
import type { ApprovalView } from "@/lib/contracts/approval";
import type { Divergence } from "@/lib/contracts/replay";
import { mapValues, setEntry } from "./persistent-map";
import type { LiveState } from "./state";

export function applyApproval(state: LiveState, approval: ApprovalView): LiveState {
  return { ...state, approvals: setEntry(state.approvals, approval.id, approval) };
}

/** Approvals still waiting for a decision anywhere in the tree, oldest first. */
export function selectPendingApprovals(state: LiveState): ApprovalView[] {
  return [...mapValues(state.approvals)]
    .filter((approval) => approval.state === "pending")
    .sort((a, b) => a.requested_at - b.requested_at || a.id.localeCompare(b.id));
}

/** A replayed thread's first divergence (one per thread: a repeat delivery changes nothing). */
export function applyDivergence(state: LiveState, divergence: Divergence): LiveState {
  return { ...state, divergences: setEntry(state.divergences, divergence.thread_id, divergence) };
}

/** Every divergence of a replayed tree, earliest first. */
export function selectDivergences(state: LiveState): Divergence[] {
  return [...mapValues(state.divergences)].sort((a, b) => a.at - b.at);
}
