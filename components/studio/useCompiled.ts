"use client";
// The live compile (lib/studio/compiled-document), shared by every panel that reads it: one compile
// per definition change for the whole studio, none while nodes are only dragged — and the panels do
// not even re-render then, because the selected value stays the same object. `graph` is the
// document as of its last definition change; read positions from the store.
import { type CompiledDocument, compileDocument } from "@/lib/studio/compiled-document";
import type { StudioStore } from "@/lib/studio/studio-store";
import { useStudio, useStudioStore } from "./StudioStoreContext";

const lastCompiled = new WeakMap<StudioStore, CompiledDocument>();

function compiledFor(store: StudioStore, graph: CompiledDocument["graph"]): CompiledDocument {
  const previous = lastCompiled.get(store);
  const compiled = compileDocument(graph, previous);
  if (compiled !== previous) lastCompiled.set(store, compiled);
  return compiled;
}

export function useCompiled(): CompiledDocument {
  const store = useStudioStore();
  return useStudio((state) => compiledFor(store, state.history.present));
}
