"use client";
// Polls `GET /api/projects/:id/activity` while the studio is open (and visible) and maps the answer
// to node decorations with the pure `nodeActivity`. A poll that changes nothing keeps the same map,
// so the canvas does not re-render; a failed poll keeps the last decorations and tries again.
import { useEffect, useMemo, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import type { ProjectActivity } from "@/lib/contracts/activity";
import type { GraphNode } from "@/lib/graph";
import { type NodeActivity, nodeActivity, sameNodeActivity } from "@/lib/studio/run-activity";

export const ACTIVITY_POLL_MS = 1500;

const api = createApiClient();

export function useNodeActivity(
  projectId: string,
  nodes: readonly GraphNode[],
): ReadonlyMap<string, NodeActivity> {
  const [activity, setActivity] = useState<ProjectActivity | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (document.visibilityState === "visible") {
        try {
          const next = await api.projects.activity(projectId);
          if (!stopped) setActivity(next);
        } catch {
          // Keep the last decorations; the next poll tries again.
        }
      }
      if (!stopped) timer = setTimeout(poll, ACTIVITY_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [projectId]);

  const [decorations, setDecorations] = useState<ReadonlyMap<string, NodeActivity>>(() => new Map());
  const next = useMemo(() => nodeActivity(nodes, activity), [nodes, activity]);
  useEffect(() => {
    setDecorations((current) => (sameNodeActivity(current, next) ? current : next));
  }, [next]);
  return decorations;
}
