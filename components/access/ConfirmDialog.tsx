"use client";
// "Are you sure?" for actions that cannot be undone (revoke a key, remove a member, delete a
// credential): says what will happen, and the confirm button names the action.
import { useState } from "react";
import { Button } from "../ui/Button";
import { Dialog, DialogHeader } from "../ui/Dialog";
import { FormError } from "./fields";

export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  /** Rejects with the reason the action failed (shown in the dialog). */
  onConfirm(): Promise<void>;
  onClose(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={open} label={title} onClose={onClose} className="w-[28rem]">
      <DialogHeader title={title} onClose={onClose} />
      <div className="flex flex-col gap-3 p-4">
        <p>{body}</p>
        <FormError message={error} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button tone="danger" onClick={() => void confirm()} disabled={busy} aria-busy={busy || undefined}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
