"use client";
// What the playground says about a kept run that is not of the canvas's saved version and agent
// (lib/studio/kept-run.ts): above a run shown anyway, the notice with New run on the saved version;
// above the form Run opened instead, which run was put aside, its thread page and Show it here.
import { Button } from "../ui/Button";
import { type PlaygroundRun, usePlayground, usePlaygroundStore } from "./PlaygroundContext";
import { useStudio } from "./StudioStoreContext";

/** Above a run of an older version or of an agent gone: what it is, and a new run on the saved version. */
export function StaleRunNotice({
  notice,
  run,
  currentVersion,
}: {
  notice: string;
  run: PlaygroundRun;
  currentVersion: number | null;
}) {
  const store = usePlaygroundStore();
  return (
    <div
      role="status"
      className="flex flex-col gap-1.5 border-b border-border bg-surface-muted px-3 py-2 text-xs"
      data-testid="playground-stale"
    >
      <p>{notice}</p>
      <Button
        size="compact"
        tone="primary"
        className="self-start"
        onClick={() =>
          store.setState({ run: null, live: null, selectedId: null, previousRun: run, focusPending: true })
        }
      >
        New run{currentVersion ? ` on v${currentVersion}` : ""}
      </Button>
    </div>
  );
}

/** A run Run put aside (older version, or an agent gone): said above the form, with its thread page. */
export function PreviousRunNotice() {
  const store = usePlaygroundStore();
  const previous = usePlayground((state) => state.previousRun);
  const currentVersion = useStudio((state) => state.baseVersion);
  if (!previous) return null;
  return (
    <div
      className="flex flex-col gap-1 rounded-md border border-border bg-surface-muted px-3 py-2 text-xs"
      data-testid="playground-previous-run"
    >
      <p>
        Your last run here, of <span className="font-mono">{previous.agentId}</span>
        {previous.version ? ` on v${previous.version}` : ""}, is from an older canvas
        {currentVersion ? ` (saved now as v${currentVersion})` : ""}: this starts a new run.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <a
          href={`/threads/${encodeURIComponent(previous.rootId)}`}
          target="_blank"
          rel="noopener"
          className="text-accent underline-offset-2 hover:underline"
        >
          Open that run<span aria-hidden> ↗</span>
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        <button
          type="button"
          className="text-accent underline-offset-2 hover:underline"
          onClick={() => store.setState({ run: previous, previousRun: null, selectedId: previous.rootId })}
        >
          Show it here
        </button>
      </div>
    </div>
  );
}
