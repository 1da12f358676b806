"use client";
// Loads something about one thread when a panel opens, again on "Refresh", and again whenever
// `refreshKey` changes (the thread's status), dropping answers that arrive for an older request.
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "@/lib/api/client";

export interface InspectorData<T> {
  data: T | null;
  loading: boolean;
  error: string | null;
  refresh: () => void;
}

export function useInspectorData<T>(
  load: (threadId: string) => Promise<T>,
  threadId: string,
  refreshKey: string,
): InspectorData<T> {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((value) => value + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey and tick only trigger a reload.
  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    load(threadId)
      .then((value) => {
        if (current) setData(value);
      })
      .catch((caught: unknown) => {
        if (!current) return;
        setError(caught instanceof ApiError || caught instanceof Error ? caught.message : String(caught));
      })
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [load, threadId, refreshKey, tick]);

  return { data, loading, error, refresh };
}
