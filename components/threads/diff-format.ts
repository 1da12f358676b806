// Text for the diff view's header: a run's figure and the change from run A to run B ("+120 (+12%)").

/** `b - a` signed, with the relative change when `a` is not zero; "±0" when equal. */
export function formatDelta(a: number, b: number, format: (value: number) => string = String): string {
  const delta = b - a;
  if (delta === 0) return "±0";
  const sign = delta > 0 ? "+" : "−";
  const relative = a !== 0 ? ` (${sign}${Math.round((Math.abs(delta) / Math.abs(a)) * 100)}%)` : "";
  return `${sign}${format(Math.abs(delta))}${relative}`;
}

export function formatMilliseconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatUsd(value: number): string {
  if (value === 0) return "$0";
  return value < 0.01 ? `$${value.toFixed(6)}` : `$${value.toFixed(4)}`;
}

/** "child 1", "child 1 › 2" for a child pair's path (counting from 1 for people). */
export function childPathLabel(path: readonly number[]): string {
  return path.length === 0 ? "root" : `child ${path.map((index) => index + 1).join(" › ")}`;
}
