"use client";
// A modal dialog on the native <dialog> element: the browser traps focus, Escape closes it, and it
// has the dialog role with the given name.
import { type ReactNode, useEffect, useRef } from "react";

export function Dialog({
  open,
  label,
  onClose,
  children,
  className = "",
}: {
  open: boolean;
  label: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // The native close event also fires when `open` turned false; only a close by the user (Escape)
  // must be reported, or closing one dialog to open another would close the new one too. The event
  // is queued, not fired in close(): when the dialog was opened again before it ran (a shortcut
  // pressed just after Cancel), it is stale and must not close the reopened dialog.
  const openRef = useRef(open);
  openRef.current = open;
  // Closes this component asked for whose close event has not been fired yet.
  const ownCloses = useRef(0);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      ownCloses.current += 1;
      dialog.close();
    }
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click mirrors Escape, which <dialog> handles itself.
    <dialog
      ref={ref}
      aria-label={label}
      onClose={() => {
        if (ownCloses.current > 0) {
          ownCloses.current -= 1;
          return;
        }
        if (openRef.current && !ref.current?.open) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
      className={`m-auto max-h-[calc(100vh-2rem)] max-w-[calc(100vw-2rem)] overflow-auto rounded-lg border border-border bg-surface p-0 text-sm text-inherit shadow-xl backdrop:bg-black/30 ${className}`}
    >
      {open ? children : null}
    </dialog>
  );
}

export function DialogHeader({ title, onClose }: { title: string; onClose(): void }) {
  return (
    <div className="flex items-center justify-between border-b border-border px-4 py-2">
      <h2 className="text-sm font-semibold">{title}</h2>
      <button
        type="button"
        aria-label="Close"
        onClick={onClose}
        className="rounded px-2 py-0.5 text-muted hover:bg-surface-muted"
      >
        ✕
      </button>
    </div>
  );
}
