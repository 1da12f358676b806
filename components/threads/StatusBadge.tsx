// A thread status in the shared status colours (globals.css --status-*); running pulses (unless
// `pulse` is false: a virtualised list pulses only the rows in view, each pulse being a layer).
import type { ThreadStatus } from "@/lib/live";
import { threadStatusLabel } from "./status-label";

export function StatusBadge({ status, pulse = true }: { status: ThreadStatus; pulse?: boolean }) {
  return (
    <span
      data-testid="status-badge"
      className="inline-flex shrink-0 items-center gap-1 rounded-full border border-border px-1.5 text-xs"
    >
      <span
        aria-hidden
        className={`size-2 rounded-full ${pulse && status === "running" ? "animate-pulse" : ""}`}
        style={{ backgroundColor: `var(--status-${status})` }}
      />
      {threadStatusLabel(status)}
    </span>
  );
}
