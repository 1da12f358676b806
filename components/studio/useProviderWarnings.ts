"use client";
// The studio's warnings about models this server cannot call (lib/studio/provider-diagnostics): the
// server's providers are read once per studio (they change only when the server restarts).
import { useEffect, useMemo } from "react";
import { createApiClient } from "@/lib/api/client";
import type { GraphDiagnostic } from "@/lib/graph";
import { providerDiagnostics } from "@/lib/studio/provider-diagnostics";
import type { StudioStore } from "@/lib/studio/studio-store";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";

/** Stores whose providers were asked for: several panels use these warnings, the server is asked once. */
const asked = new WeakSet<StudioStore>();

export function useProviderWarnings(): GraphDiagnostic[] {
  const store = useStudioStore();
  const providers = useStudio((state) => state.providers);
  const { graph } = useCompiled();
  useEffect(() => {
    if (store.getState().providers || asked.has(store)) return;
    asked.add(store);
    createApiClient()
      .providers.list()
      .then((list) => store.getState().setProviders(list))
      // Without an answer there is nothing to warn about; a run still says why a call failed.
      .catch(() => {});
  }, [store]);
  return useMemo(() => providerDiagnostics(graph, providers), [graph, providers]);
}
