"use client";
// The live compile (lib/studio/compiled-document), shared by every panel that reads it: one compile
// per definition change for the whole studio, none while nodes are only dragged. `graph` is the
// document as of its last definition change; read positions from the store.
import { useMemo } from "react";
import { type CompiledDocument, compileDocument } from "@/lib/studio/compiled-document";
import type { StudioStore } from "@/lib/studio/studio-store";
import { useStudio, useStudioStore } from "./StudioStoreContext";

const lastCompiled = new WeakMap<StudioStore, CompiledDocument>();

export function useCompiled(): CompiledDocument {
  const store = useStudioStore();
  const graph = useStudio((state) => state.history.present);
  return useMemo(() => {
    const compiled = compileDocument(graph, lastCompiled.get(store));
    lastCompiled.set(store, compiled);
    return compiled;
  }, [graph, store]);
}
