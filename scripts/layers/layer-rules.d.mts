// Types of layer-rules.mjs (plain JavaScript: `npm run lint` runs the layer check with no build step).
import type { Layer } from "./layer-list.mjs";

export interface RankedLayer extends Layer {
  /** The layer's row in LAYER_ROWS, 0 at the top. */
  row: number;
}
export interface ImportEdge {
  from: string;
  specifier: string;
  typeOnly: boolean;
  target?: string;
  package?: string;
}
export function stemOf(file: string): string;
export function layerOf(file: string): RankedLayer | undefined;
export function layerNamed(name: string): RankedLayer | undefined;
export function forbiddenReason(from: RankedLayer, to: RankedLayer, targetStem: string): string | null;
export function layerProblem(edge: ImportEdge): string | null;
export function sqlImportProblem(edge: ImportEdge): string | null;
export function isSqlClientImport(edge: ImportEdge): boolean;
export function mayUseDatabase(file: string): boolean;
export function fileProblem(file: string): string | null;
