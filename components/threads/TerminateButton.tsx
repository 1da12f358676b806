"use client";
// Terminate a thread (and, as the spec says, all its descendants) after an inline confirmation.
import { useState } from "react";
import { Button } from "../ui/Button";

export function TerminateButton({
  threadLabel,
  onTerminate,
}: {
  threadLabel: string;
  onTerminate: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!confirming)
    return (
      <Button tone="danger" size="compact" onClick={() => setConfirming(true)}>
        Terminate
      </Button>
    );
  return (
    <fieldset className="flex items-center gap-2" aria-label={`Confirm terminating ${threadLabel}`}>
      <span className="text-sm text-muted">End {threadLabel} and all its subagents for good?</span>
      <Button
        tone="danger"
        size="compact"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await onTerminate();
          setBusy(false);
          setConfirming(false);
        }}
      >
        Confirm terminate
      </Button>
      <Button size="compact" onClick={() => setConfirming(false)}>
        Cancel
      </Button>
    </fieldset>
  );
}
