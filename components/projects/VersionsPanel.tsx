"use client";
// The project's version history, newest first; restoring one saves it as a new version, then either
// reloads the page data (project page) or hands the new version to `onRestored` (the studio reloads
// its canvas from it).
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import type { SavedGraph } from "@/lib/contracts/project";
import type { VersionEntry } from "@/lib/contracts/version";
import { VersionRow } from "./VersionRow";

const api = createApiClient();

export function VersionsPanel({
  projectId,
  currentVersion,
  onRestored,
}: {
  projectId: string;
  currentVersion: number;
  onRestored?: (saved: SavedGraph) => void | Promise<void>;
}) {
  const router = useRouter();
  const [versions, setVersions] = useState<VersionEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setVersions(await api.versions.list(projectId));
      setError(null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not load the versions.");
    }
  }, [projectId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new current version means a new entry.
  useEffect(() => {
    void load();
  }, [load, currentVersion]);

  const restore = useCallback(
    async (version: number) => {
      try {
        const saved = await api.versions.restore(projectId, version, versions?.[0]?.version);
        await load();
        if (onRestored) await onRestored(saved);
        else router.refresh();
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : "Could not restore the version.");
      }
    },
    [projectId, versions, load, router, onRestored],
  );

  return (
    <section aria-label="Versions" className="rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">
        Versions {versions && <span className="text-muted">({versions.length})</span>}
      </h2>
      {error && (
        <p role="alert" className="px-4 py-2 text-sm text-danger">
          {error}
        </p>
      )}
      {versions === null ? (
        !error && <p className="px-4 py-3 text-muted">Loading…</p>
      ) : (
        <ul className="divide-y divide-border">
          {versions.map((entry, index) => (
            <VersionRow
              key={entry.version}
              projectId={projectId}
              entry={entry}
              isCurrent={index === 0}
              onRestore={restore}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
