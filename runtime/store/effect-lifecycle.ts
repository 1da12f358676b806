// The status of a scheduled effect (`scheduled_effects.status`, values EFFECT_STATUSES of
// lib/contracts/effect): scheduled until a runner claims it, running under that runner's lease, then
// done, failed, scheduled again (a retry, a hand-back) or cancelled. Changed only by the named
// transitions of EFFECT_STATUS, whose UPDATEs are in effect-store.ts (the table's row writer):
// scripts/thread-status-writes.test.ts fails on any other writer.
import { statusTable } from "./status-table";

export const EFFECT_STATUS = statusTable("scheduled_effects.status", {
  schedule: {
    from: [],
    to: ["scheduled"],
    callers: "ThreadState.scheduleEffect (insertEffect; the column's default)",
  },
  cancel: {
    from: ["scheduled"],
    to: ["cancelled"],
    callers: "cancelEffect (a retry waiting counts as not started)",
  },
  claim: {
    from: ["scheduled", "running"],
    to: ["running"],
    callers: "claimDueEffects: due and scheduled, or running behind an expired lease",
  },
  finish: {
    from: ["running"],
    to: ["done", "failed"],
    callers: "endEffectRun (under the runner's lease)",
  },
  retry: {
    from: ["running"],
    to: ["scheduled"],
    callers: "endEffectRun with a back-off (under the runner's lease)",
  },
  cancelClaimed: {
    from: ["running"],
    to: ["cancelled"],
    callers: "cancelClaimedEffect: its thread was terminated before it ran",
  },
  handBack: {
    from: ["running"],
    to: ["scheduled"],
    callers: "the effect runner's drain (runtime/effects/effect-runner: its attempt not counted)",
  },
});
