// Types of check-layers.mjs (plain JavaScript: `npm run lint` runs it with no build step).
export interface LayerCheckProblem {
  file: string;
  rule: "layers" | "sql";
  /** The import as written, for a problem with one import. */
  specifier?: string;
  message: string;
}
export function sourceFiles(root: string, folder?: string): Promise<string[]>;
export function checkLayers(
  root: string,
  files: string[],
  options?: { wholeRepository?: boolean },
): Promise<LayerCheckProblem[]>;
