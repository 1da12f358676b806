"use client";
// The banner shown when the studio opened with a restored draft: how old it is, whether the server
// has moved on since (the next save then asks how to combine), and Discard / Dismiss.
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/Button";
import { relativeTime } from "@/lib/studio/draft";
import { useStudio, useStudioStore } from "./StudioStoreContext";

export function DraftNotice() {
  const store = useStudioStore();
  const notice = useStudio((state) => state.draftNotice);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!notice) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [notice]);
  if (!notice) return null;
  return (
    <section
      aria-label="Restored draft"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-border bg-surface-muted px-3 py-1.5 text-sm"
    >
      <p role="status" className="min-w-0 flex-1">
        <span className="font-medium">
          Restored unsaved changes from{" "}
          <time
            dateTime={new Date(notice.savedAt).toISOString()}
            title={new Date(notice.savedAt).toLocaleString()}
          >
            {relativeTime(notice.savedAt, now)}
          </time>
        </span>
        {notice.staleBase !== null && notice.serverVersion !== null ? (
          <span className="text-muted">
            {" "}
            — made on v{notice.staleBase}; v{notice.serverVersion} was saved since, so saving will ask how to
            combine them.
          </span>
        ) : (
          <span className="text-muted"> — kept in this browser until you save or discard them.</span>
        )}
      </p>
      <div className="flex gap-1.5">
        <Button
          size="compact"
          tone="danger"
          onClick={() => {
            store.getState().discardChanges();
            store
              .getState()
              .setStatus({ tone: "info", text: "Discarded the restored changes (Undo brings them back)" });
          }}
        >
          Discard
        </Button>
        <Button size="compact" onClick={() => store.getState().dismissDraftNotice()}>
          Dismiss
        </Button>
      </div>
    </section>
  );
}
