"use client";
// Terminate a thread (and, as the spec says, all its descendants) after an inline confirmation.
// A role that may not terminate sees it disabled with the reason (the role table).
import { useState } from "react";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
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
  const refused = refusal(usePermission("terminate"));

  if (!confirming || refused !== null)
    return (
      <Gated reason={refused}>
        <Button tone="danger" size="compact" disabled={refused !== null} onClick={() => setConfirming(true)}>
          Terminate
        </Button>
      </Gated>
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
