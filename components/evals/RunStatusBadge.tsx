// An eval run's status in the shared status colours: running pulses, done is green, failed red,
// cancelled as a stopped thread.
import type { EvalRunStatus } from "@/lib/evals/eval-shapes";

const COLOUR: Record<EvalRunStatus, string> = {
  running: "running",
  done: "completed",
  failed: "failed",
  cancelled: "stopped",
};

export function RunStatusBadge({ status }: { status: EvalRunStatus }) {
  return (
    <span
      data-testid="run-status"
      className="inline-flex shrink-0 items-center gap-1 rounded-full border border-border px-1.5 text-xs"
    >
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${status === "running" ? "animate-pulse motion-reduce:animate-none" : ""}`}
        style={{ backgroundColor: `var(--status-${COLOUR[status]})` }}
      />
      {status}
    </span>
  );
}
