"use client";
// The live compile: runs compileGraph on every document change (pure and fast) and memoises it.
import { useMemo } from "react";
import { compileGraph, deriveEdges } from "@/lib/graph";
import { countErrors } from "@/lib/studio/diagnostic-targets";
import { useStudio } from "./StudioStoreContext";

export function useCompiled() {
  const graph = useStudio((state) => state.history.present);
  return useMemo(() => {
    const compiled = compileGraph(graph);
    return { graph, ...compiled, edges: deriveEdges(graph), counts: countErrors(compiled.diagnostics) };
  }, [graph]);
}
