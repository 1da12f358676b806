// Small pieces the eval views share: an error note, the words for an API error, and the pass/fail mark.
import type { ReactNode } from "react";
import { ApiError } from "@/lib/api/client";

export function describeApiError(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.status === 404 && error.code !== "not_found" && error.code !== "error") return error.message;
    return error.message || fallback;
  }
  return error instanceof Error ? `${fallback} ${error.message}` : fallback;
}

export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-sm text-danger">
      {children}
    </p>
  );
}

/** Passed or failed, in words and the shared status colours (completed green, failed red). */
export function PassMark({ passed, label }: { passed: boolean | null | undefined; label?: string }) {
  if (passed === null || passed === undefined) return <span className="text-muted">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <span
        aria-hidden="true"
        className="size-2 rounded-full"
        style={{ backgroundColor: `var(--status-${passed ? "completed" : "failed"})` }}
      />
      <span className={passed ? "" : "font-medium text-danger"}>
        {label ?? (passed ? "passed" : "failed")}
      </span>
    </span>
  );
}
