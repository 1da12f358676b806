// Cycle detection for name graphs (prompt includes, model fallbacks), with deterministic, de-duplicated results.

/**
 * The cycles a depth-first search meets (at least one in every group of names that reach each
 * other), each rotated to start at its smallest name and reported once. Self-loops come out as
 * one-element cycles. Nodes are visited in sorted order and edges in the given order, so the
 * result is stable for a given graph.
 */
export function findCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const finished = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();

  /** Only called with a node of `edges`; a finished node is not searched again. */
  const visit = (node: string): void => {
    if (finished.has(node)) return;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)!) {
      if (onStack.has(next)) {
        const cycle = stack.slice(stack.indexOf(next));
        const canonical = rotateToSmallest(cycle);
        cycles.set(canonical.join("\u0000"), canonical);
      } else if (edges.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    onStack.delete(node);
    finished.add(node);
  };

  for (const node of [...edges.keys()].sort()) visit(node);
  return [...cycles.values()].sort((a, b) => (a.join(" ") < b.join(" ") ? -1 : 1));
}

function rotateToSmallest(cycle: string[]): string[] {
  let start = 0;
  cycle.forEach((name, index) => {
    if (name < cycle[start]!) start = index;
  });
  return [...cycle.slice(start), ...cycle.slice(0, start)];
}

/** `a → b → a` */
export function describeCycle(cycle: readonly string[]): string {
  return [...cycle, cycle[0]].join(" → ");
}
