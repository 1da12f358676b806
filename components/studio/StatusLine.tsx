"use client";
// One line of feedback: saves, connections made and why a connection was refused.
import { useStudio } from "./StudioStoreContext";

export function StatusLine() {
  const status = useStudio((state) => state.status);
  return (
    <p
      role="status"
      aria-label="Studio status"
      className={`min-h-6 border-t border-border px-3 py-1 text-xs ${status?.tone === "error" ? "text-danger" : "text-muted"}`}
    >
      {status?.text ?? ""}
    </p>
  );
}
