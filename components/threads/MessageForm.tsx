"use client";
// The chat composer: a message box (Enter sends, Shift+Enter starts a new line) with attachments
// (the Attach button, drag and drop, or paste). On send every file not yet uploaded goes into the
// thread's filesystem, then the message is posted with their paths. A failed upload or post keeps
// the text and the files; files already uploaded are not uploaded again on the next try.
import {
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import {
  type CreateAt,
  MAX_ATTACHMENTS_PER_MESSAGE,
  uploadUnderFreeName,
} from "@/lib/chat/attachment-uploads";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { Button } from "../ui/Button";
import { formatBytes } from "./inspect-format";
import { readSessionText, writeSessionText } from "./session-text";

interface DraftFile {
  key: number;
  file: File;
  /** Where it was uploaded: set once, so a retry does not upload it again. */
  path: string | null;
  state: "waiting" | "uploading" | "uploaded" | "failed";
  error: string | null;
}

/** How the composer reaches the server (ThreadView binds these to the thread). */
export interface MessageFormActions {
  /** Posts the message; false when it failed (the caller shows why). */
  send: (content: string, attachmentPaths: string[]) => Promise<boolean>;
  /** Creates a file at a path unless something is there; rejects with the server's error. */
  upload: (file: File, path: string) => Promise<"created" | "taken">;
  /** Deletes a file uploaded for a draft that the person removed again. */
  remove: (path: string) => Promise<void>;
}

const MAX_ROWS = 8;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function MessageForm({
  label,
  submitLabel,
  disabled: disabledByCaller,
  placeholder,
  actions,
  draftKey,
}: {
  label: string;
  submitLabel: string;
  disabled?: boolean;
  /** Defaults to the label with the keyboard hints; narrow panels pass a shorter one. */
  placeholder?: string;
  actions: MessageFormActions;
  /** Where the unsent text is kept across a reload (session-text.ts), if anywhere. */
  draftKey?: string;
}) {
  const inputId = useId();
  // A viewer reads the thread but may not post to it: the composer is disabled and says why.
  const refused = refusal(usePermission("message"));
  const disabled = disabledByCaller || refused !== null;
  const fileInput = useRef<HTMLInputElement>(null);
  const nextKey = useRef(1);
  const [draft, setDraft] = useState("");
  const [files, setFiles] = useState<DraftFile[]>([]);
  const [sending, setSending] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The unsent text survives a reload: taken back once mounted (the server rendered it empty) or when
  // the composer moves to another thread's key, then kept on every change; sending it forgets it.
  // (This effect reads before the next one writes: effects run in order.)
  useEffect(() => {
    if (draftKey) setDraft(readSessionText(draftKey));
  }, [draftKey]);
  useEffect(() => {
    if (draftKey) writeSessionText(draftKey, draft);
  }, [draftKey, draft]);

  const canSend = !disabled && !sending && (draft.trim() !== "" || files.length > 0);

  function addFiles(list: FileList | readonly File[]) {
    const incoming = Array.from(list);
    if (incoming.length === 0) return;
    const room = MAX_ATTACHMENTS_PER_MESSAGE - files.length;
    const accepted = incoming.slice(0, Math.max(0, room));
    setProblem(
      accepted.length < incoming.length
        ? `A message takes at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments; ${incoming.length - accepted.length} file${incoming.length - accepted.length === 1 ? " was" : "s were"} not added.`
        : null,
    );
    const added = accepted.map(
      (file): DraftFile => ({ key: nextKey.current++, file, path: null, state: "waiting", error: null }),
    );
    setFiles((current) => [...current, ...added]);
  }

  function removeFile(entry: DraftFile) {
    setFiles((current) => current.filter((candidate) => candidate.key !== entry.key));
    setProblem(null);
    // Uploaded for this draft only: it goes again, quietly (a leftover file does no harm).
    if (entry.path) void actions.remove(entry.path).catch(() => undefined);
  }

  function update(key: number, change: Partial<DraftFile>) {
    setFiles((current) => current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));
  }

  /** Uploads what is not uploaded yet, in order; the paths of all files, or null after a failure. */
  async function uploadAll(): Promise<string[] | null> {
    const paths: string[] = [];
    const createAt =
      (file: File): CreateAt =>
      (path) =>
        actions.upload(file, path);
    for (const entry of files) {
      if (entry.path) {
        paths.push(entry.path);
        continue;
      }
      update(entry.key, { state: "uploading", error: null });
      try {
        const path = await uploadUnderFreeName(entry.file.name, createAt(entry.file));
        update(entry.key, { state: "uploaded", path });
        paths.push(path);
      } catch (error) {
        const message = errorText(error);
        update(entry.key, { state: "failed", error: message });
        setProblem(
          `Could not upload ${entry.file.name}: ${message} Remove it or try again; your message was not sent.`,
        );
        return null;
      }
    }
    return paths;
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    setProblem(null);
    const paths = await uploadAll();
    const sent = paths !== null && (await actions.send(draft.trim(), paths));
    setSending(false);
    if (sent) {
      setDraft("");
      setFiles([]);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  function onDragOver(event: DragEvent) {
    if (disabled || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  }

  function onDrop(event: DragEvent) {
    setDragging(false);
    if (disabled || event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    addFiles(event.dataTransfer.files);
  }

  function onPaste(event: ClipboardEvent) {
    if (event.clipboardData.files.length === 0) return;
    event.preventDefault();
    addFiles(event.clipboardData.files);
  }

  const rows = Math.min(MAX_ROWS, Math.max(1, draft.split("\n").length));

  return (
    <form
      onSubmit={submit}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      aria-busy={sending}
      className={`flex min-w-0 flex-1 flex-col gap-1.5 rounded-md ${dragging ? "outline-2 outline-accent outline-dashed" : ""}`}
    >
      {files.length > 0 ? (
        <ul aria-label="Attachments to send" className="flex flex-wrap gap-1.5">
          {files.map((entry) => (
            <li
              key={entry.key}
              data-state={entry.state}
              title={entry.error ?? entry.path ?? undefined}
              className={`flex items-center gap-1.5 rounded-md border px-2 py-0.5 text-xs ${
                entry.state === "failed" ? "border-danger/60 text-danger" : "border-border bg-surface"
              }`}
            >
              <span className="max-w-56 truncate font-medium">{entry.file.name}</span>
              <span className="text-muted">{formatBytes(entry.file.size)}</span>
              {entry.state === "uploading" ? <span className="text-muted">uploading…</span> : null}
              {entry.state === "uploaded" && sending ? <span className="text-muted">uploaded</span> : null}
              {entry.state === "failed" ? <span>upload failed</span> : null}
              <button
                type="button"
                onClick={() => removeFile(entry)}
                disabled={sending}
                aria-label={`Remove ${entry.file.name}`}
                className="rounded px-1 text-muted hover:bg-surface-muted hover:text-text disabled:opacity-50"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? (
        <p role="alert" className="text-sm text-danger">
          {problem}
        </p>
      ) : null}
      <div className="flex items-end gap-2">
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Attach files"
          onChange={(event) => {
            if (event.target.files) addFiles(event.target.files);
            event.target.value = "";
          }}
        />
        <Button
          onClick={() => fileInput.current?.click()}
          disabled={disabled || sending}
          title="Attach files (or drop them here, or paste)"
        >
          Attach
        </Button>
        <label htmlFor={inputId} className="sr-only">
          {label}
        </label>
        <textarea
          id={inputId}
          value={draft}
          rows={rows}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          placeholder={
            refused ?? placeholder ?? `${label} (Enter sends, Shift+Enter for a new line; markdown works)`
          }
          disabled={disabled}
          readOnly={sending}
          className="min-h-8 flex-1 resize-none rounded-md border border-border bg-surface px-2.5 py-1.5 outline-none focus:border-accent disabled:opacity-50"
        />
        <Gated reason={refused}>
          <Button type="submit" tone="primary" disabled={!canSend}>
            {submitLabel}
          </Button>
        </Gated>
      </div>
    </form>
  );
}
