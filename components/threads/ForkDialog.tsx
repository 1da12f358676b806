"use client";
// "Fork from here" and "Edit and fork" on a transcript message (issue 21 "Fork"): a new thread gets
// this one's history up to the message (or, editing, up to the message before it, then the edited
// text in its place) and its files; the original stays as it is. On success the caller navigates.
import { useId, useState } from "react";
import type { LiveMessage } from "@/lib/live";
import { Button } from "../ui/Button";
import { Dialog, DialogHeader } from "../ui/Dialog";

export interface ForkRequest {
  message: LiveMessage;
  /** `edit`: replace the message (a user message) with edited text. */
  mode: "fork" | "edit";
}

export function ForkDialog({
  request,
  onClose,
  fork,
}: {
  request: ForkRequest | null;
  onClose(): void;
  /** Forks and navigates; rejects with a message to show. */
  fork(input: { atMessageId: string; content?: string; replace?: boolean }): Promise<void>;
}) {
  const fieldId = useId();
  const emptyEditReasonId = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shownFor, setShownFor] = useState<string | null>(null);
  const key = request ? `${request.mode}:${request.message.id}` : null;
  if (key !== shownFor) {
    // A new request: start from the message's text when editing, empty otherwise.
    setShownFor(key);
    setText(request?.mode === "edit" ? (request.message.content ?? "") : "");
    setError(null);
    setBusy(false);
  }
  const editing = request?.mode === "edit";
  // An edit replaces the message, so it needs text: the submit button waits for it and says why.
  const emptyEdit = editing && text.trim() === "";
  const title = editing ? "Edit and fork" : "Fork from here";

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!request) return;
    const content = text.trim() === "" ? undefined : text;
    if (editing && content === undefined) {
      setError("Write the message the fork should send instead.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await fork({
        atMessageId: request.message.id,
        ...(content !== undefined ? { content } : {}),
        ...(editing ? { replace: true } : {}),
      });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  }

  return (
    <Dialog open={request !== null} label={title} onClose={onClose} className="w-[36rem]">
      <DialogHeader title={title} onClose={onClose} />
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-3 p-4">
        <p>
          {editing
            ? "A new thread gets this conversation up to the message before this one and the thread's files, then sends your edited message in its place."
            : "A new thread gets this conversation up to and including this message (with the results of any tool calls it made) and the thread's files."}{" "}
          This thread stays exactly as it is.
        </p>
        <label htmlFor={fieldId} className="font-medium">
          {editing ? "Edited message" : "Then send (optional)"}
        </label>
        <textarea
          id={fieldId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={4}
          placeholder={editing ? undefined : "Leave empty to fork and wait for your input"}
          aria-describedby={emptyEdit ? emptyEditReasonId : undefined}
          className="rounded-md border border-border bg-background px-2 py-1.5 text-sm"
        />
        {emptyEdit ? (
          <p id={emptyEditReasonId} data-testid="fork-empty-edit" className="text-sm text-muted">
            Write the message the fork should send instead of this one.
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            tone="primary"
            disabled={busy || emptyEdit}
            aria-describedby={emptyEdit ? emptyEditReasonId : undefined}
          >
            {busy ? "Forking…" : editing ? "Fork with this message" : "Fork"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
