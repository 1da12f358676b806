// Plain-text tables and number formatting for the benchmark report.
import type { Summary } from "./stats";

export type Cell = string | number;

/** Prints a titled table; numbers are right-aligned, text left-aligned. */
export function printTable(
  title: string,
  header: readonly string[],
  rows: readonly (readonly Cell[])[],
): void {
  const text = rows.map((row) => row.map((cell) => (typeof cell === "number" ? fixed(cell) : cell)));
  const widths = header.map((name, column) =>
    Math.max(name.length, ...text.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[], numeric: readonly boolean[]) =>
    cells
      .map((cell, column) =>
        numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  console.log(`\n${title}`);
  console.log(
    line(
      header,
      header.map(() => false),
    ),
  );
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  rows.forEach((row, index) => {
    console.log(
      line(
        text[index]!,
        row.map((cell) => typeof cell === "number"),
      ),
    );
  });
}

/** A number with sensible precision: 3 significant digits below 100, integers above. */
export function fixed(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function ms(value: number): string {
  return `${fixed(value)} ms`;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Summary columns p50 / p90 / p99 / max / mean, in milliseconds. */
export function summaryCells(summary: Summary): Cell[] {
  return [summary.count, summary.p50, summary.p90, summary.p99, summary.max, summary.mean];
}

export const SUMMARY_HEADER = ["n", "p50 ms", "p90 ms", "p99 ms", "max ms", "mean ms"] as const;

export function section(title: string): void {
  console.log(`\n━━ ${title} ━━`);
}
