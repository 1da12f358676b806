// A thread status in the shared status colours (globals.css --status-*); running pulses.
import type { ThreadStatus } from "@/lib/live";

export function StatusBadge({ status }: { status: ThreadStatus }) {
  return (
    <span
      data-testid="status-badge"
      className="inline-flex shrink-0 items-center gap-1 rounded-full border border-border px-1.5 text-xs"
    >
      <span
        aria-hidden
        className={`size-2 rounded-full ${status === "running" ? "animate-pulse" : ""}`}
        style={{ backgroundColor: `var(--status-${status})` }}
      />
      {status.replace("_", " ")}
    </span>
  );
}
