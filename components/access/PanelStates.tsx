// The designed states of a settings list: loading (skeleton rows), failed (what went wrong and Try
// again), and empty (what the list is for and how to add the first item).
import type { ReactNode } from "react";
import { Button } from "../ui/Button";

export function LoadingRows({ label }: { label: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className="flex flex-col gap-2 py-2">
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-8 animate-pulse rounded bg-surface-muted" />
      ))}
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function LoadFailed({ what, message, onRetry }: { what: string; message: string; onRetry(): void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-md border border-danger/40 bg-danger/5 px-3 py-2"
    >
      <p className="min-w-0 flex-1 text-sm text-danger">
        Could not load {what}: {message}
      </p>
      <Button size="compact" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-border px-4 py-6 text-center">
      <p className="font-medium">{title}</p>
      <div className="mt-1 text-sm text-muted">{children}</div>
    </div>
  );
}
