"use client";
// Which threads of a live tree are collapsed, shared by the tree and the timeline so both show the
// same rows. Everything starts expanded; `toggle` flips one thread, `setExpanded` sets it.
import { useCallback, useMemo, useState } from "react";
import { isExpanded, type TreeExpansion } from "@/lib/live";

export interface TreeExpansionControl {
  expansion: TreeExpansion;
  setExpanded: (threadId: string, expanded: boolean) => void;
}

export function useTreeExpansion(): TreeExpansionControl {
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  const expansion = useMemo(() => ({ defaultExpanded: true, toggled }), [toggled]);
  const setExpanded = useCallback((threadId: string, expanded: boolean) => {
    setToggled((current) => {
      if (isExpanded({ defaultExpanded: true, toggled: current }, threadId) === expanded) return current;
      const next = new Set(current);
      if (next.has(threadId)) next.delete(threadId);
      else next.add(threadId);
      return next;
    });
  }, []);
  return { expansion, setExpanded };
}
