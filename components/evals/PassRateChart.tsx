// The pass rate over versions: one point per version (its latest finished run), as a small SVG line
// chart with the values also listed for screen readers. No chart library: a handful of points.
import { formatRate } from "@/lib/evals/describe";
import type { PassRatePoint } from "@/lib/evals/run-history";

// Drawn at its own size (one SVG unit = one CSS pixel), so the 11 px labels stay legible.
const WIDTH = 384;
const HEIGHT = 136;
const PAD = { left: 40, right: 16, top: 12, bottom: 24 };

export function PassRateChart({ points }: { points: readonly PassRatePoint[] }) {
  if (points.length === 0) {
    return <p className="text-sm text-muted">The chart fills in as versions are run.</p>;
  }
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) =>
    PAD.left + (points.length === 1 ? innerWidth / 2 : (index / (points.length - 1)) * innerWidth);
  const y = (rate: number) => PAD.top + (1 - rate) * innerHeight;
  const path = points
    .map((point, index) => `${index === 0 ? "M" : "L"}${x(index)},${y(point.passRate)}`)
    .join(" ");
  return (
    <figure className="flex flex-col gap-1" data-testid="pass-rate-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        className="max-w-full text-muted"
        role="img"
        aria-label={`Pass rate by version: ${points.map((point) => `version ${point.version} ${formatRate(point.passRate)}`).join(", ")}`}
      >
        {[0, 0.5, 1].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="var(--border)" />
            <text x={PAD.left - 4} y={y(tick) + 4} textAnchor="end" fontSize="11" fill="currentColor">
              {tick * 100}%
            </text>
          </g>
        ))}
        <path d={path} fill="none" stroke="var(--accent)" strokeWidth="2" />
        {points.map((point, index) => (
          <g key={point.version}>
            <circle cx={x(index)} cy={y(point.passRate)} r="3" fill="var(--accent)" />
            <text x={x(index)} y={HEIGHT - 6} textAnchor="middle" fontSize="11" fill="currentColor">
              v{point.version}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="text-xs text-muted">Pass rate of the latest run of each version</figcaption>
    </figure>
  );
}
