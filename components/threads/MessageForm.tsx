"use client";
// A one-line message box with a send button; clears itself once the server has queued the message.
import { type FormEvent, useId, useState } from "react";
import { Button } from "../ui/Button";

export function MessageForm({
  label,
  submitLabel,
  disabled,
  onSend,
}: {
  label: string;
  submitLabel: string;
  disabled?: boolean;
  onSend: (content: string) => Promise<boolean>;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const content = draft.trim();
    if (!content) return;
    setSending(true);
    const sent = await onSend(content);
    setSending(false);
    if (sent) setDraft("");
  }

  return (
    <form onSubmit={submit} className="flex flex-1 gap-2">
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <input
        id={inputId}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        placeholder={label}
        disabled={disabled}
        className="h-8 flex-1 rounded-md border border-border bg-surface px-2.5 outline-none focus:border-accent disabled:opacity-50"
      />
      <Button type="submit" tone="primary" disabled={disabled || sending || draft.trim() === ""}>
        {submitLabel}
      </Button>
    </form>
  );
}
