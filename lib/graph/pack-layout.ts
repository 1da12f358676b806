// Re-packing a layered layout into a room: the columns (layers) of a left-to-right layout are wrapped
// into rows (a row continues where the last one ended, back at the left), and a column taller than
// the room is split into side-by-side sub-columns. Used when the plain layout is larger than the room
// fit view shows at the smallest legible zoom and ELK's own wrapping does not fit it either (ELK wraps
// by an aspect ratio, never splits a tall layer, and often keeps one long row). Among the packings
// that fit, the one with the fewest breaks (row wraps + column splits) wins. Deterministic and pure.
import { BADGE_ROOM_ABOVE_AGENT, cardSize } from "./card-geometry";
import type { Graph, GraphNode } from "./document";
import type { Size } from "./fit-viewport";

export interface PackGaps {
  /** Between columns, and between rows (edges that cross a wrap run back through it). */
  layer: number;
  /** Between cards stacked in a column (more above an agent: BADGE_ROOM_ABOVE_AGENT). */
  node: number;
}

/** Between the sub-columns of a split column (no edge runs between them). */
const SUB_COLUMN_GAP = 24;
/** Beyond this many columns the row wraps are not searched exhaustively (2^(n−1) partitions). */
const MAX_COLUMNS = 12;
/** A column is split into at most this many sub-columns. */
const MAX_SPLIT = 4;

interface Column {
  /** Top to bottom, as the plain layout stacked them. */
  nodes: GraphNode[];
  width: number;
}

const height = (node: GraphNode) => cardSize(node).height;

/** The gap a stack leaves above `node`: run badges hang above agents. */
export function gapAbove(node: GraphNode, nodeGap: number): number {
  return node.type === "agent" ? Math.max(nodeGap, BADGE_ROOM_ABOVE_AGENT) : nodeGap;
}

/** The plain layout's columns: cards whose x ranges overlap, left to right. */
export function layoutColumns(graph: Graph): Column[] {
  const sorted = [...graph.nodes].sort((a, b) => a.position.x - b.position.x || a.position.y - b.position.y);
  const columns: { nodes: GraphNode[]; left: number; right: number }[] = [];
  for (const node of sorted) {
    const right = node.position.x + cardSize(node).width;
    const current = columns.at(-1);
    if (current && node.position.x < current.right) {
      current.nodes.push(node);
      current.right = Math.max(current.right, right);
    } else {
      columns.push({ nodes: [node], left: node.position.x, right });
    }
  }
  return columns.map((column) => ({
    nodes: column.nodes.sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x),
    width: Math.max(...column.nodes.map((node) => cardSize(node).width)),
  }));
}

function stackHeight(nodes: readonly GraphNode[], nodeGap: number): number {
  return nodes.reduce((sum, node, index) => sum + height(node) + (index ? gapAbove(node, nodeGap) : 0), 0);
}

/** The column cut into as few top-to-bottom runs as keep each at most `limit` tall. */
function chunk(nodes: readonly GraphNode[], limit: number, nodeGap: number): GraphNode[][] {
  const chunks: GraphNode[][] = [];
  let current: GraphNode[] = [];
  let filled = 0;
  for (const node of nodes) {
    const added = (current.length ? gapAbove(node, nodeGap) : 0) + height(node);
    if (current.length && filled + added > limit) {
      chunks.push(current);
      current = [node];
      filled = height(node);
    } else {
      current.push(node);
      filled += added;
    }
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** The column heights worth trying as a limit: each column cut evenly into 1…MAX_SPLIT runs. */
function heightLimits(columns: readonly Column[], nodeGap: number): number[] {
  const limits = new Set<number>([Number.POSITIVE_INFINITY]);
  for (const column of columns) {
    for (let parts = 2; parts <= Math.min(MAX_SPLIT, column.nodes.length); parts++) {
      const size = Math.ceil(column.nodes.length / parts);
      let tallest = 0;
      for (let start = 0; start < column.nodes.length; start += size) {
        tallest = Math.max(tallest, stackHeight(column.nodes.slice(start, start + size), nodeGap));
      }
      limits.add(tallest);
    }
  }
  return [...limits].sort((a, b) => b - a);
}

/** Every way to cut `count` columns, in order, into rows: the rows' first column indices. */
function rowStarts(count: number): number[][] {
  const all: number[][] = [];
  for (let mask = 0; mask < 2 ** (count - 1); mask++) {
    const starts = [0];
    for (let index = 1; index < count; index++) if (mask & (1 << (index - 1))) starts.push(index);
    all.push(starts);
  }
  return all;
}

interface Packing {
  /** Each row: its columns' runs (sub-columns). */
  rows: { columns: { runs: GraphNode[][]; width: number }[]; aligned: boolean }[];
  width: number;
  height: number;
  breaks: number;
}

/**
 * The packing of `graph` (a plain layered layout) that fits `room` with the fewest breaks, or the one
 * that fit view shows most of when none fits; null when there is nothing to re-pack (one column, or
 * too many to search).
 */
export function packLayers(graph: Graph, room: Size, gaps: PackGaps): Graph | null {
  const columns = layoutColumns(graph);
  if (columns.length < 2 && (columns[0]?.nodes.length ?? 0) < 2) return null;
  if (columns.length > MAX_COLUMNS) return null;
  const limits = heightLimits(columns, gaps.node);
  // Per column and limit: its runs, their width side by side and the tallest run.
  const cut = columns.map((column) =>
    limits.map((limit) => {
      const runs = chunk(column.nodes, limit, gaps.node);
      return {
        runs,
        width: runs.length * column.width + (runs.length - 1) * SUB_COLUMN_GAP,
        height: Math.max(...runs.map((run) => stackHeight(run, gaps.node))),
      };
    }),
  );
  // A row of unsplit columns may keep the plain layout's vertical placement (cards level with the
  // cards they connect to), when that is no taller than the room allows.
  const alignedHeight = (from: number, to: number) => {
    const nodes = columns.slice(from, to).flatMap((column) => column.nodes);
    const top = Math.min(...nodes.map((node) => node.position.y));
    return Math.max(...nodes.map((node) => node.position.y + height(node))) - top;
  };
  const scale = (width: number, tall: number) =>
    Math.min(room.width / Math.max(1, width), room.height / Math.max(1, tall));
  let best: Packing | null = null;
  let bestScore: number[] | null = null;
  const better = (score: number[]) => {
    if (!bestScore) return true;
    for (let index = 0; index < score.length; index++) {
      if (score[index] !== bestScore[index]) return (score[index] ?? 0) > (bestScore[index] ?? 0);
    }
    return false;
  };
  for (const starts of rowStarts(columns.length)) {
    const bounds = starts.map((start, index) => [start, starts[index + 1] ?? columns.length] as const);
    for (const [limitIndex] of limits.entries()) {
      for (const align of [true, false]) {
        let width = 0;
        let tall = 0;
        let breaks = bounds.length - 1;
        const rows: Packing["rows"] = [];
        for (const [from, to] of bounds) {
          const rowColumns = cut.slice(from, to).map((perLimit) => perLimit[limitIndex]!);
          const split = rowColumns.some((column) => column.runs.length > 1);
          breaks += rowColumns.reduce((sum, column) => sum + column.runs.length - 1, 0);
          const rowWidth =
            rowColumns.reduce((sum, column) => sum + column.width, 0) + (rowColumns.length - 1) * gaps.layer;
          const aligned = align && !split;
          const rowHeight = aligned
            ? alignedHeight(from, to)
            : Math.max(...rowColumns.map((column) => column.height));
          width = Math.max(width, rowWidth);
          tall += (rows.length ? gaps.layer : 0) + rowHeight;
          rows.push({ columns: rowColumns, aligned });
        }
        const shown = scale(width, tall);
        // Fits first; then the fewest breaks; then cards kept level with what they connect to; then
        // the most shown (the largest zoom). None fits: the most shown.
        const score = shown >= 1 ? [1, -breaks, align ? 1 : 0, shown] : [0, shown, -breaks, align ? 1 : 0];
        if (better(score)) {
          best = { rows, width, height: tall, breaks };
          bestScore = score;
        }
      }
    }
  }
  if (!best || best.breaks === 0) return null;
  return placePacking(graph, best, gaps);
}

function placePacking(graph: Graph, packing: Packing, gaps: PackGaps): Graph {
  const positions = new Map<string, { x: number; y: number }>();
  let top = 0;
  for (const row of packing.rows) {
    const nodes = row.columns.flatMap((column) => column.runs.flat());
    const plainTop = Math.min(...nodes.map((node) => node.position.y));
    const rowHeight = row.aligned
      ? Math.max(...nodes.map((node) => node.position.y + height(node))) - plainTop
      : Math.max(...row.columns.flatMap((column) => column.runs.map((run) => stackHeight(run, gaps.node))));
    let left = 0;
    for (const column of row.columns) {
      const columnWidth = (column.width - (column.runs.length - 1) * SUB_COLUMN_GAP) / column.runs.length;
      for (const [index, run] of column.runs.entries()) {
        const x = left + index * (columnWidth + SUB_COLUMN_GAP);
        if (row.aligned) {
          for (const node of run) positions.set(node.id, { x, y: top + node.position.y - plainTop });
          continue;
        }
        // Compact: the run stacked, centred in the row's height.
        let y = top + (rowHeight - stackHeight(run, gaps.node)) / 2;
        for (const [at, node] of run.entries()) {
          if (at) y += gapAbove(node, gaps.node);
          positions.set(node.id, { x, y });
          y += height(node);
        }
      }
      left += column.width + gaps.layer;
    }
    top += rowHeight + gaps.layer;
  }
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const at = positions.get(node.id);
      return at ? { ...node, position: { x: Math.round(at.x), y: Math.round(at.y) } } : node;
    }),
  };
}
