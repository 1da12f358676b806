// The state of a tool approval (`tool_approvals.state`, values of lib/contracts/approval): pending
// from the step that parked on it (`awaitApproval` in thread-lifecycle.ts) until a human decides it,
// or until its thread is terminated. Changed only by the named transitions of APPROVAL_STATE, whose
// UPDATEs are in approval-store.ts (the table's row writer): scripts/thread-status-writes.test.ts
// fails on any other writer. A decision is made once: no transition leaves a decided state.
import { statusTable } from "./status-table";

export const APPROVAL_STATE = statusTable("tool_approvals.state", {
  request: {
    from: [],
    to: ["pending"],
    callers: "parkOnApproval (awaitApproval, thread-lifecycle: the reply's undecided calls)",
  },
  decide: {
    from: ["pending"],
    to: ["approved", "denied", "cancelled"],
    callers: "ApprovalService.decide (setApprovalDecision)",
  },
  cancelForTermination: {
    from: ["pending"],
    to: ["cancelled"],
    callers: "ThreadService.terminate (cancelPendingApprovals)",
  },
});
