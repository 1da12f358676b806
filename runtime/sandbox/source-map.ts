// Line numbers for runCode's TypeScript: esbuild reprints a TypeScript module, so QuickJS's stack
// frames ("main.ts:2:16") point into esbuild's output. This reads the source map esbuild gives
// with it (version 3, one source) and rewrites such positions to the user's own lines and columns.

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One mapped position: generated column → original line and column (all 0-based). */
interface Segment {
  column: number;
  sourceLine: number;
  sourceColumn: number;
}

/** The segments of each generated line, in column order. */
export type LineMap = Segment[][];

/** Decodes a source map's `mappings` (Base64 VLQ) into segments per generated line. */
export function decodeMappings(mappings: string): LineMap {
  const lines: LineMap = [];
  let sourceLine = 0;
  let sourceColumn = 0;
  for (const line of mappings.split(";")) {
    const segments: Segment[] = [];
    let column = 0;
    for (const text of line.split(",")) {
      if (!text) continue;
      const fields = decodeVlq(text);
      column += fields[0] ?? 0;
      if (fields.length >= 4) {
        sourceLine += fields[2]!;
        sourceColumn += fields[3]!;
        segments.push({ column, sourceLine, sourceColumn });
      }
    }
    lines.push(segments);
  }
  return lines;
}

function decodeVlq(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) return values;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

/** The original 1-based line and column of a generated 1-based position, or null when unmapped. */
export function originalPosition(
  map: LineMap,
  line: number,
  column: number,
): { line: number; column: number } | null {
  const segments = map[line - 1];
  if (!segments?.length) return null;
  let best = segments[0]!;
  for (const segment of segments) {
    if (segment.column > column - 1) break;
    best = segment;
  }
  return { line: best.sourceLine + 1, column: best.sourceColumn + 1 };
}

/** `text` with every `filename:line:column` (and `filename:line`) rewritten to the original source. */
export function mapPositions(text: string, filename: string, map: LineMap): string {
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`, "g"), (whole, line, column) => {
    const found = originalPosition(map, Number(line), column === undefined ? 1 : Number(column));
    if (!found) return whole;
    return column === undefined ? `${filename}:${found.line}` : `${filename}:${found.line}:${found.column}`;
  });
}
