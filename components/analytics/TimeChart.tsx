"use client";
// One time-series chart of the project dashboard, drawn by uPlot (chosen by measurement:
// docs/observability.md "Dashboard"): lines or bars over the buckets, the theme's colours, as wide
// as its box. Hovering shows the bucket's numbers in a readout above the plot; the same numbers are
// in the dashboard's tables, so the canvas itself is an image with a text summary.
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef, useState } from "react";
import type uPlot from "uplot";

export interface ChartSeries {
  label: string;
  /** A CSS colour or custom property name (`--accent`). */
  color: string;
  values: number[];
  /** Formats a value for the readout and the axis. */
  format: (value: number) => string;
  /** Drawn against a second axis on the right. */
  rightAxis?: boolean;
}

const HEIGHT = 200;

function resolveColor(element: HTMLElement, color: string): string {
  if (!color.startsWith("--")) return color;
  return getComputedStyle(element).getPropertyValue(color).trim() || "#888";
}

export function TimeChart({
  title,
  summary,
  times,
  series,
  bucket,
}: {
  title: string;
  /** What the chart shows, in words (the canvas's accessible name). */
  summary: string;
  /** Bucket starts, epoch ms. */
  times: number[];
  series: ChartSeries[];
  bucket: "hour" | "day";
}) {
  const box = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<number | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      const text = resolveColor(element, "--text-muted");
      const grid = resolveColor(element, "--border");
      const hasRight = series.some((entry) => entry.rightAxis);
      const axis = (side: 1 | 3, format: ChartSeries["format"] | undefined): uPlot.Axis => ({
        scale: side === 1 ? "right" : "y",
        side,
        stroke: text,
        grid: { stroke: grid, width: 1, show: side === 3 },
        ticks: { stroke: grid, width: 1 },
        size: 64,
        values: (_plot, splits) => splits.map((value) => (format ? format(value) : String(value))),
      });
      const options: uPlot.Options = {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { size: 6 } },
        scales: { x: { time: true }, y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: text, grid: { show: false }, ticks: { stroke: grid, width: 1 } },
          axis(3, series.find((entry) => !entry.rightAxis)?.format),
          ...(hasRight ? [axis(1, series.find((entry) => entry.rightAxis)?.format)] : []),
        ],
        series: [
          {},
          ...series.map(
            (entry): uPlot.Series => ({
              label: entry.label,
              stroke: resolveColor(element, entry.color),
              width: 1.5,
              scale: entry.rightAxis ? "right" : "y",
              points: { show: times.length <= 60 },
            }),
          ),
        ],
        hooks: {
          setCursor: [(chart) => setHovered(chart.cursor.idx ?? null)],
        },
      };
      if (hasRight)
        options.scales = {
          ...options.scales,
          right: { range: (_p, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        };
      plot = new UPlot(
        options,
        [times.map((time) => time / 1000), ...series.map((entry) => entry.values)],
        element,
      );
      observer = new ResizeObserver(() => {
        plot?.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT });
      });
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [times, series]);

  const index = hovered ?? null;
  return (
    // min-w-0 and the hidden overflow: a canvas still at its old width never widens the grid cell
    // (the resize observer then sees the cell's own width and redraws to it).
    <figure className="min-w-0 rounded-lg border border-border bg-surface p-3" data-testid="analytics-chart">
      <figcaption className="flex min-h-6 flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
        <span className="font-medium">{title}</span>
        {index !== null && times[index] !== undefined ? (
          <span className="text-xs text-muted tabular-nums" data-testid="chart-readout">
            {formatBucket(times[index] ?? 0, bucket)}
            {series.map((entry) => (
              <span key={entry.label} className="ml-2">
                <span aria-hidden="true" style={{ color: `var(${entry.color})` }}>
                  ●
                </span>{" "}
                {entry.label}{" "}
                <span className="text-[var(--text)]">{entry.format(entry.values[index] ?? 0)}</span>
              </span>
            ))}
          </span>
        ) : (
          <span className="text-xs text-muted">
            {series.map((entry) => (
              <span key={entry.label} className="mr-2">
                <span aria-hidden="true" style={{ color: `var(${entry.color})` }}>
                  ●
                </span>{" "}
                {entry.label}
              </span>
            ))}
          </span>
        )}
      </figcaption>
      <div
        ref={box}
        role="img"
        aria-label={`${title}: ${summary}`}
        className="overflow-hidden"
        style={{ height: HEIGHT }}
      />
    </figure>
  );
}

export function formatBucket(ms: number, bucket: "hour" | "day"): string {
  const date = new Date(ms);
  return bucket === "day"
    ? date.toLocaleDateString(undefined, { month: "short", day: "numeric", year: "numeric" })
    : date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}
