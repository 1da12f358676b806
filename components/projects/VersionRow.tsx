"use client";
// One version of the history: number, time, counts, a lazy "Diff with previous" disclosure and a
// confirmed "Restore" (which saves it again as a new version).
import { useState } from "react";
import { Gated } from "@/components/access/Gated";
import { refusal, usePermission } from "@/components/access/permission";
import { createApiClient } from "@/lib/api/client";
import type { VersionDiff, VersionEntry } from "@/lib/contracts/version";
import { plural } from "@/lib/text/plural";
import { VersionDiffView } from "./VersionDiffView";

const api = createApiClient();

type DiffState =
  | { kind: "closed" }
  | { kind: "loading" }
  | { kind: "open"; diff: VersionDiff }
  | { kind: "failed"; message: string };

export function formatVersionTime(createdAtMicroseconds: number): string {
  return new Date(createdAtMicroseconds / 1000).toLocaleString();
}

export function versionCountsText({ summary }: VersionEntry): string {
  const parts = [
    plural(summary.agents, "agent"),
    plural(summary.prompts, "prompt"),
    plural(summary.models, "model"),
    plural(summary.tools, "tool"),
  ];
  if (summary.errors > 0) parts.push(plural(summary.errors, "error"));
  if (summary.warnings > 0) parts.push(plural(summary.warnings, "warning"));
  return parts.join(" · ");
}

export function VersionRow({
  projectId,
  entry,
  isCurrent,
  onRestore,
}: {
  projectId: string;
  entry: VersionEntry;
  isCurrent: boolean;
  onRestore: (version: number) => Promise<void>;
}) {
  const [diff, setDiff] = useState<DiffState>({ kind: "closed" });
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const hasPrevious = entry.version > 1;
  // Restoring saves a version: an editor's (the role table); others see it disabled and why.
  const refused = refusal(usePermission("restore", projectId));

  async function toggleDiff() {
    if (diff.kind !== "closed") {
      setDiff({ kind: "closed" });
      return;
    }
    setDiff({ kind: "loading" });
    try {
      setDiff({ kind: "open", diff: await api.versions.diff(projectId, entry.version) });
    } catch (error) {
      setDiff({
        kind: "failed",
        message: error instanceof Error ? error.message : "Could not load the diff.",
      });
    }
  }

  async function restore() {
    setRestoring(true);
    try {
      await onRestore(entry.version);
    } finally {
      setRestoring(false);
      setConfirming(false);
    }
  }

  return (
    <li aria-label={`Version ${entry.version}`} className="flex flex-col gap-2 px-4 py-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-medium">v{entry.version}</span>
        {isCurrent && <span className="text-xs text-muted">(current)</span>}
        <time className="text-muted" dateTime={new Date(entry.created_at / 1000).toISOString()}>
          {formatVersionTime(entry.created_at)}
        </time>
        {/* Shrinks (cut, with its whole text as a tooltip) before the actions leave the line. */}
        <span className="min-w-24 flex-1 truncate text-muted" title={versionCountsText(entry)}>
          {versionCountsText(entry)}
        </span>
        <span className="ml-auto flex shrink-0 gap-2">
          {hasPrevious && (
            <button
              type="button"
              className="underline"
              aria-expanded={diff.kind !== "closed"}
              onClick={toggleDiff}
            >
              {diff.kind === "closed" ? "Diff with previous" : "Hide diff"}
            </button>
          )}
          {!isCurrent && !confirming && (
            <Gated reason={refused}>
              <button
                type="button"
                className="underline disabled:cursor-not-allowed disabled:no-underline"
                disabled={refused !== null}
                onClick={() => setConfirming(true)}
              >
                Restore
              </button>
            </Gated>
          )}
        </span>
      </div>
      {confirming && (
        <fieldset
          aria-label={`Confirm restoring version ${entry.version}`}
          className="flex items-center gap-3 border-0 p-0 text-sm"
        >
          <span>Save version {entry.version} again as a new version?</span>
          <button type="button" className="underline" disabled={restoring} onClick={restore}>
            Restore version {entry.version}
          </button>
          <button
            type="button"
            className="underline"
            disabled={restoring}
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
        </fieldset>
      )}
      {diff.kind === "loading" && <p className="text-sm text-muted">Loading the diff…</p>}
      {diff.kind === "failed" && <p className="text-sm text-danger">{diff.message}</p>}
      {diff.kind === "open" && (
        <section aria-label={`Changes in version ${entry.version}`}>
          <VersionDiffView diff={diff.diff} />
        </section>
      )}
    </li>
  );
}
