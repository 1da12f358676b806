// 90 days by hour: 2,160 points of two series (model calls and p95 latency), deterministic.
export function series() {
  const start = Date.UTC(2026, 8, 1);
  const t = [];
  const calls = [];
  const p95 = [];
  for (let i = 0; i < 2160; i++) {
    t.push(start + i * 3_600_000);
    calls.push(Math.round(200 + 150 * Math.sin(i / 12) + ((i * 7919) % 97)));
    p95.push(Math.round(800 + 300 * Math.cos(i / 30) + ((i * 104729) % 211)));
  }
  return { t, calls, p95 };
}
export function done(label) {
  requestAnimationFrame(() => {
    window.__rendered = { label, ms: performance.now() - window.__start };
  });
}
