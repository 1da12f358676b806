// The inspector panels' header: a count, a Refresh button and the last load error.
import { Button } from "../ui/Button";

export function PanelToolbar({
  summary,
  loading,
  error,
  onRefresh,
}: {
  summary: string;
  loading: boolean;
  error: string | null;
  onRefresh: () => void;
}) {
  return (
    <>
      <div className="flex items-center gap-2 border-b border-border px-3 py-1.5 text-sm">
        <span className="text-muted" aria-live="polite">
          {loading ? "Loading…" : summary}
        </span>
        <Button size="compact" className="ml-auto" onClick={onRefresh} disabled={loading}>
          Refresh
        </Button>
      </div>
      {error ? (
        <p
          role="alert"
          className="mx-3 mt-2 rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger"
        >
          {error}
        </p>
      ) : null}
    </>
  );
}
