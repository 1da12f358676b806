"use client";
// One project in the list, with inline rename and a confirmed delete, and its activity at a glance:
// how many runs and the latest one's start and status, and the tool calls waiting for approval (a
// link to the project's threads filtered to them, its inbox on top). Focus follows the controls
// that replace each other: into the rename field or the confirmation when they open, and back to the
// button that opened them when they close, so a keyboard user never lands on the page's body.
import Link from "next/link";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { ProjectSummary } from "@/lib/contracts/project";
import type { ThreadStatus } from "@/lib/contracts/thread";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { StatusBadge } from "../threads/StatusBadge";
import { Button } from "../ui/Button";

export function formatUpdatedAt(microseconds: number, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - microseconds / 1000) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(microseconds / 1000).toLocaleDateString();
}

type RowMode = "view" | "rename" | "confirm-delete";

export function ProjectRow({
  project,
  onRename,
  onDelete,
}: {
  project: ProjectSummary;
  /** Renames the project; answers why it could not (shown beside the field), or null when renamed. */
  onRename: (id: string, name: string) => Promise<string | null>;
  onDelete: (id: string) => Promise<void>;
}) {
  const [mode, setMode] = useState<RowMode>("view");
  const [draftName, setDraftName] = useState(project.name);
  const [renameError, setRenameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const renameErrorId = useId();
  const renameInput = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  // Which button takes the focus back once the row shows its buttons again (they mount then).
  const returnFocusTo = useRef<"rename" | "delete" | null>(null);

  useEffect(() => {
    if (mode === "rename") renameInput.current?.select();
    // The harmless choice first: Enter or Space on an opened confirmation keeps the project.
    if (mode === "confirm-delete") keepButton.current?.focus();
    if (mode === "view" && returnFocusTo.current) {
      (returnFocusTo.current === "rename" ? renameButton : deleteButton).current?.focus();
      returnFocusTo.current = null;
    }
  }, [mode]);

  function closeTo(button: "rename" | "delete") {
    returnFocusTo.current = button;
    setRenameError(null);
    setMode("view");
  }

  // An editor renames, an owner deletes (the role table); others see why not.
  const refusedRename = refusal(usePermission("rename", project.id));
  const refusedDelete = refusal(usePermission("deleteProject", project.id));

  async function submitRename(event: FormEvent) {
    event.preventDefault();
    if (draftName.trim() === "") {
      setRenameError("A project needs a name.");
      renameInput.current?.focus();
      return;
    }
    setBusy(true);
    const problem = await onRename(project.id, draftName);
    setBusy(false);
    if (problem === null) closeTo("rename");
    else {
      setRenameError(problem);
      renameInput.current?.focus();
    }
  }

  async function confirmDelete() {
    setBusy(true);
    await onDelete(project.id);
    setBusy(false);
  }

  return (
    <li className="flex items-center gap-3 px-4 py-2.5" aria-label={project.name}>
      {mode === "rename" ? (
        <form onSubmit={submitRename} className="flex flex-1 flex-col gap-1">
          <div className="flex gap-2">
            <label htmlFor={`rename-${project.id}`} className="sr-only">
              New name for {project.name}
            </label>
            <input
              id={`rename-${project.id}`}
              ref={renameInput}
              value={draftName}
              maxLength={200}
              aria-invalid={renameError ? true : undefined}
              aria-describedby={renameError ? renameErrorId : undefined}
              onChange={(event) => setDraftName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Escape") closeTo("rename");
              }}
              className={`h-8 flex-1 rounded-md border bg-surface px-2.5 outline-none focus:border-accent ${
                renameError ? "border-danger" : "border-border"
              }`}
            />
            <Button type="submit" tone="primary" disabled={busy}>
              Save name
            </Button>
            <Button onClick={() => closeTo("rename")}>Cancel</Button>
          </div>
          {renameError ? (
            <p id={renameErrorId} role="alert" className="text-sm text-danger">
              {renameError}
            </p>
          ) : null}
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
            {project.activity ? <ProjectActivityLine project={project} activity={project.activity} /> : null}
          </div>
          {mode === "confirm-delete" ? (
            <fieldset
              className="flex items-center gap-2"
              aria-label={`Confirm deleting ${project.name}`}
              onKeyDown={(event) => {
                if (event.key === "Escape") closeTo("delete");
              }}
            >
              <span className="text-sm text-muted">Delete with all its versions?</span>
              <Button tone="danger" disabled={busy} onClick={() => void confirmDelete()}>
                Delete for good
              </Button>
              <Button ref={keepButton} onClick={() => closeTo("delete")}>
                Keep
              </Button>
            </fieldset>
          ) : (
            <div className="flex gap-2">
              <Gated reason={refusedRename}>
                <Button
                  ref={renameButton}
                  aria-label={`Rename ${project.name}`}
                  disabled={refusedRename !== null}
                  onClick={() => {
                    setDraftName(project.name);
                    setMode("rename");
                  }}
                >
                  Rename
                </Button>
              </Gated>
              <Gated reason={refusedDelete}>
                <Button
                  ref={deleteButton}
                  tone="danger"
                  aria-label={`Delete ${project.name}`}
                  disabled={refusedDelete !== null}
                  onClick={() => setMode("confirm-delete")}
                >
                  Delete
                </Button>
              </Gated>
            </div>
          )}
        </>
      )}
    </li>
  );
}

type Activity = NonNullable<ProjectSummary["activity"]>;

/** Runs, the latest run's start and status, and a link to the approvals waiting (when any). */
function ProjectActivityLine({ project, activity }: { project: ProjectSummary; activity: Activity }) {
  const { runs, last_run: last, pending_approvals: pending } = activity;
  return (
    <span data-testid="project-activity" className="flex flex-wrap items-center gap-x-1 gap-y-0.5 text-xs">
      <span className="text-muted" data-testid="project-runs">
        {runs === 0 ? "no runs yet" : `${runs} run${runs === 1 ? "" : "s"}`}
      </span>
      {last ? (
        <span className="flex items-center gap-1 text-muted" data-testid="project-last-run">
          · last run {formatUpdatedAt(last.created_at)}
          <StatusBadge status={last.status as ThreadStatus} pulse={false} />
        </span>
      ) : null}
      {pending > 0 ? (
        <Link
          href={`/projects/${project.id}?status=waiting_approval`}
          data-testid="project-pending-approvals"
          className="ml-1 inline-flex min-h-6 items-center gap-1 font-medium text-accent underline underline-offset-2"
        >
          <span
            aria-hidden
            className="size-2 rounded-full"
            style={{ backgroundColor: "var(--status-waiting_approval)" }}
          />
          {pending} waiting for approval
          <span className="sr-only"> in {project.name}</span>
        </Link>
      ) : null}
    </span>
  );
}
