"use client";
// One project in the list, with inline rename and a confirmed delete.
import Link from "next/link";
import { type FormEvent, useEffect, useRef, useState } from "react";
import type { ProjectSummary } from "@/lib/api/schemas";
import { Button } from "../ui/Button";

export function formatUpdatedAt(microseconds: number, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - microseconds / 1000) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(microseconds / 1000).toLocaleDateString();
}

export function ProjectRow({
  project,
  onRename,
  onDelete,
}: {
  project: ProjectSummary;
  onRename: (id: string, name: string) => Promise<boolean>;
  onDelete: (id: string) => Promise<void>;
}) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [draftName, setDraftName] = useState(project.name);
  const [busy, setBusy] = useState(false);
  const renameInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (mode === "rename") renameInput.current?.select();
  }, [mode]);

  async function submitRename(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const renamed = await onRename(project.id, draftName);
    setBusy(false);
    if (renamed) setMode("view");
  }

  async function confirmDelete() {
    setBusy(true);
    await onDelete(project.id);
    setBusy(false);
  }

  return (
    <li className="flex items-center gap-3 px-4 py-2.5" aria-label={project.name}>
      {mode === "rename" ? (
        <form onSubmit={submitRename} className="flex flex-1 gap-2">
          <label htmlFor={`rename-${project.id}`} className="sr-only">
            New name for {project.name}
          </label>
          <input
            id={`rename-${project.id}`}
            ref={renameInput}
            value={draftName}
            maxLength={200}
            onChange={(event) => setDraftName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") setMode("view");
            }}
            className="h-8 flex-1 rounded-md border border-border bg-surface px-2.5 outline-none focus:border-accent"
          />
          <Button type="submit" tone="primary" disabled={busy}>
            Save name
          </Button>
          <Button onClick={() => setMode("view")}>Cancel</Button>
        </form>
      ) : (
        <>
          <div className="flex min-w-0 flex-1 flex-col">
            <Link
              href={`/projects/${project.id}`}
              title={project.name}
              className="truncate font-medium hover:underline"
            >
              {project.name}
            </Link>
            <span className="text-xs text-muted">
              version {project.version} · updated {formatUpdatedAt(project.updated_at)}
            </span>
          </div>
          {mode === "confirm-delete" ? (
            <fieldset className="flex items-center gap-2" aria-label={`Confirm deleting ${project.name}`}>
              <span className="text-sm text-muted">Delete with all its versions?</span>
              <Button tone="danger" disabled={busy} onClick={() => void confirmDelete()}>
                Delete for good
              </Button>
              <Button onClick={() => setMode("view")}>Keep</Button>
            </fieldset>
          ) : (
            <div className="flex gap-2">
              <Button
                aria-label={`Rename ${project.name}`}
                onClick={() => {
                  setDraftName(project.name);
                  setMode("rename");
                }}
              >
                Rename
              </Button>
              <Button
                tone="danger"
                aria-label={`Delete ${project.name}`}
                onClick={() => setMode("confirm-delete")}
              >
                Delete
              </Button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
