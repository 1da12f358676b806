"use client";
// The project dashboard (`/projects/:id/analytics`, docs/observability.md "Dashboard"): a range picker
// (24 h / 7 d / 30 d / 90 d / custom) and an hour/day switch over GET /api/projects/:id/analytics
// (with include=outcomes) — totals, charts per bucket (numbers on hover), tables by agent, model and tool, and
// how runs ended, and the eval pass rate over versions. Loading, empty and error states are designed, not blank.
import Link from "next/link";
import { useCallback, useEffect, useId, useMemo, useState } from "react";
import {
  type AnalyticsBucket,
  DashboardAnswerSchema,
  type EvalPassRates as PassRates,
  type ProjectAnalytics,
  type ProjectOutcomes,
} from "@/lib/contracts/analytics";
import { Button } from "../ui/Button";
import { EvalPassRates } from "./EvalPassRates";
import { type ChartSeries, TimeChart } from "./TimeChart";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PRESETS = [
  { id: "24h", label: "24 h", ms: DAY },
  { id: "7d", label: "7 d", ms: 7 * DAY },
  { id: "30d", label: "30 d", ms: 30 * DAY },
  { id: "90d", label: "90 d", ms: 90 * DAY },
] as const;
type PresetId = (typeof PRESETS)[number]["id"] | "custom";

const integer = new Intl.NumberFormat("en-US");
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const formatCount = (value: number) =>
  Math.abs(value) >= 10_000 ? compact.format(value) : integer.format(value);
const formatUsd = (value: number) =>
  `$${value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(4)}`;
export const formatMs = (value: number) =>
  value >= 60_000
    ? `${(value / 60_000).toFixed(1)} min`
    : value >= 1000
      ? `${(value / 1000).toFixed(2)} s`
      : `${Math.round(value)} ms`;

interface Loaded {
  analytics: ProjectAnalytics;
  outcomes: ProjectOutcomes;
  evals: PassRates;
}

type State = { kind: "loading" } | { kind: "error"; message: string } | { kind: "loaded"; data: Loaded };

/** `yyyy-mm-dd` of a time, in the browser's zone (a date input's value). */
function dateInput(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

async function fetchJson<T>(url: string, parse: (body: unknown) => T): Promise<T> {
  const response = await fetch(url, { cache: "no-store" });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (body as { error?: unknown } | null)?.error;
    throw new Error(typeof message === "string" ? message : `The server answered ${response.status}.`);
  }
  return parse(body);
}

export function AnalyticsDashboard({ projectId }: { projectId: string }) {
  const [preset, setPreset] = useState<PresetId>("7d");
  const [bucket, setBucket] = useState<AnalyticsBucket>("hour");
  const [custom, setCustom] = useState(() => ({
    from: dateInput(Date.now() - 7 * DAY),
    to: dateInput(Date.now()),
  }));
  const [state, setState] = useState<State>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  const labelId = useId();

  const range = useMemo(() => {
    if (preset === "custom") {
      const from = new Date(`${custom.from}T00:00:00`).getTime();
      // The custom range includes its last day.
      const to = new Date(`${custom.to}T00:00:00`).getTime() + DAY;
      return Number.isFinite(from) && Number.isFinite(to) && from < to ? { from, to, attempt } : null;
    }
    const ms = PRESETS.find((entry) => entry.id === preset)?.ms ?? 7 * DAY;
    // Whole hours, so a reload in the same hour shows the same buckets.
    const to = Math.ceil(Date.now() / HOUR) * HOUR;
    return { from: to - ms, to, attempt };
  }, [preset, custom, attempt]);

  useEffect(() => {
    if (!range) return;
    let current = true;
    setState({ kind: "loading" });
    const query = `from=${range.from}&to=${range.to}&bucket=${bucket}`;
    fetchJson(`/api/projects/${projectId}/analytics?${query}&include=outcomes`, (body) =>
      DashboardAnswerSchema.parse(body),
    ).then(
      ({ outcomes, evals, ...analytics }) =>
        current && setState({ kind: "loaded", data: { analytics, outcomes, evals } }),
      (error: unknown) =>
        current &&
        setState({ kind: "error", message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [projectId, range, bucket]);

  const choosePreset = useCallback((id: PresetId) => {
    setPreset(id);
    // Hours read well up to a week; longer ranges by day (the switch can still change it).
    if (id === "24h" || id === "7d") setBucket("hour");
    else if (id !== "custom") setBucket("day");
  }, []);

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3">
        <span id={labelId} className="text-sm text-muted">
          Range
        </span>
        <fieldset aria-labelledby={labelId} className="flex rounded-md border border-border bg-surface p-0.5">
          {[...PRESETS, { id: "custom" as const, label: "Custom" }].map((entry) => (
            <button
              key={entry.id}
              type="button"
              aria-pressed={preset === entry.id}
              onClick={() => choosePreset(entry.id)}
              className={`rounded px-2.5 py-1 text-sm ${preset === entry.id ? "bg-accent text-[var(--accent-contrast)]" : "hover:bg-surface-muted"}`}
            >
              {entry.label}
            </button>
          ))}
        </fieldset>
        {preset === "custom" ? (
          <div className="flex items-center gap-2 text-sm">
            <label className="flex items-center gap-1">
              From
              <input
                type="date"
                value={custom.from}
                max={custom.to}
                onChange={(event) => setCustom((old) => ({ ...old, from: event.target.value }))}
                className="rounded border border-border bg-surface px-1.5 py-0.5"
              />
            </label>
            <label className="flex items-center gap-1">
              To
              <input
                type="date"
                value={custom.to}
                min={custom.from}
                onChange={(event) => setCustom((old) => ({ ...old, to: event.target.value }))}
                className="rounded border border-border bg-surface px-1.5 py-0.5"
              />
            </label>
          </div>
        ) : null}
        <fieldset className="ml-auto flex items-center gap-1 text-sm">
          <legend className="sr-only">Bucket</legend>
          {(["hour", "day"] as const).map((value) => (
            <label
              key={value}
              className={`cursor-pointer rounded border px-2.5 py-1 ${bucket === value ? "border-accent text-accent" : "border-border"}`}
            >
              <input
                type="radio"
                name="bucket"
                value={value}
                checked={bucket === value}
                onChange={() => setBucket(value)}
                className="sr-only"
              />
              Per {value}
            </label>
          ))}
        </fieldset>
      </div>

      {range === null ? (
        <p role="alert" className="rounded-lg border border-border bg-surface px-4 py-3 text-sm">
          Choose a start date on or before the end date.
        </p>
      ) : state.kind === "loading" ? (
        <LoadingState />
      ) : state.kind === "error" ? (
        <div
          role="alert"
          className="flex items-center gap-3 rounded-lg border border-danger/40 bg-surface px-4 py-3"
        >
          <p className="flex-1 text-sm">
            <span className="font-medium text-danger">The figures could not be loaded.</span> {state.message}
          </p>
          <Button onClick={() => setAttempt((value) => value + 1)}>Try again</Button>
        </div>
      ) : (
        <Loaded data={state.data} bucket={bucket} projectId={projectId} />
      )}
    </div>
  );
}

function LoadingState() {
  return (
    <div
      role="status"
      aria-busy="true"
      aria-label="Loading the figures"
      className="flex flex-col gap-4"
      data-testid="analytics-loading"
    >
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((key) => (
          <div key={key} className="h-20 animate-pulse rounded-lg border border-border bg-surface-muted" />
        ))}
      </div>
      <div className="h-60 animate-pulse rounded-lg border border-border bg-surface-muted" />
      <p className="text-sm text-muted">Loading the figures…</p>
    </div>
  );
}

function Tile({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="rounded-lg border border-border bg-surface px-4 py-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums">{value}</dd>
      {detail ? <dd className="mt-0.5 text-xs text-muted tabular-nums">{detail}</dd> : null}
    </div>
  );
}

function Loaded({ data, bucket, projectId }: { data: Loaded; bucket: AnalyticsBucket; projectId: string }) {
  const { analytics, outcomes, evals } = data;
  const { totals } = outcomes;
  const times = useMemo(() => analytics.series.map((point) => Date.parse(point.t)), [analytics]);
  const charts = useMemo(() => {
    const pick = (key: keyof ProjectAnalytics["series"][number]) =>
      analytics.series.map((point) => Number(point[key]));
    const activity: ChartSeries[] = [
      { label: "Runs", color: "--status-idle", values: pick("runs"), format: formatCount },
      { label: "Model calls", color: "--accent", values: pick("model_calls"), format: formatCount },
      { label: "Errors", color: "--status-failed", values: pick("errors"), format: formatCount },
    ];
    const tokens: ChartSeries[] = [
      { label: "Input tokens", color: "--kind-prompt", values: pick("input_tokens"), format: formatCount },
      { label: "Output tokens", color: "--kind-tool", values: pick("output_tokens"), format: formatCount },
      { label: "Cost", color: "--kind-model", values: pick("cost_usd"), format: formatUsd, rightAxis: true },
    ];
    const latency: ChartSeries[] = [
      { label: "Model call p50", color: "--accent", values: pick("latency_p50_ms"), format: formatMs },
      {
        label: "Model call p95",
        color: "--status-waiting_approval",
        values: pick("latency_p95_ms"),
        format: formatMs,
      },
      {
        label: "Run p50",
        color: "--status-completed",
        values: outcomes.runs_series.map((point) => point.latency_p50_ms),
        format: formatMs,
      },
      {
        label: "Run p95",
        color: "--status-stopped",
        values: outcomes.runs_series.map((point) => point.latency_p95_ms),
        format: formatMs,
      },
    ];
    return { activity, tokens, latency };
  }, [analytics, outcomes]);

  if (totals.runs === 0 && totals.model_calls === 0) {
    return (
      <div
        className="rounded-lg border border-dashed border-border bg-surface px-6 py-10 text-center"
        data-testid="analytics-empty"
      >
        <h2 className="font-medium">Nothing ran in this range</h2>
        <p className="mx-auto mt-1 max-w-md text-sm text-muted">
          Runs, model calls, tokens and cost appear here as the project&apos;s threads work. Start a thread
          from the{" "}
          <Link className="text-accent underline" href={`/projects/${projectId}`}>
            project page
          </Link>{" "}
          or the{" "}
          <Link className="text-accent underline" href={`/projects/${projectId}/studio`}>
            studio
          </Link>
          &apos;s playground, or choose a longer range.
        </p>
      </div>
    );
  }

  const summaryOf = (series: ChartSeries[]) =>
    series.map((entry) => `${entry.label} peak ${entry.format(Math.max(0, ...entry.values))}`).join(", ");

  return (
    <div className="flex flex-col gap-5" data-testid="analytics-loaded">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Tile
          label="Runs"
          value={formatCount(totals.runs)}
          detail={
            totals.runs_in_progress > 0 ? `${formatCount(totals.runs_in_progress)} still running` : undefined
          }
        />
        <Tile
          label="Model calls"
          value={formatCount(totals.model_calls)}
          detail={`${formatCount(totals.errors)} errors (failed calls and runs)`}
        />
        <Tile
          label="Tokens"
          value={formatCount(totals.input_tokens + totals.output_tokens)}
          detail={`${formatCount(totals.input_tokens)} in · ${formatCount(totals.output_tokens)} out · ${formatUsd(totals.cost_usd)}`}
        />
        <Tile
          label="Latency p50 / p95"
          value={`${formatMs(totals.model_call_latency.p50_ms)} / ${formatMs(totals.model_call_latency.p95_ms)}`}
          detail={`runs ${formatMs(totals.run_latency.p50_ms)} / ${formatMs(totals.run_latency.p95_ms)}`}
        />
      </dl>

      <div className="grid gap-4 xl:grid-cols-2">
        <TimeChart
          title={`Runs, model calls and errors per ${bucket}`}
          summary={summaryOf(charts.activity)}
          times={times}
          series={charts.activity}
          bucket={bucket}
        />
        <TimeChart
          title={`Tokens and cost per ${bucket}`}
          summary={summaryOf(charts.tokens)}
          times={times}
          series={charts.tokens}
          bucket={bucket}
        />
        <div className="min-w-0 xl:col-span-2">
          <TimeChart
            title={`Latency p50 / p95 per ${bucket}: model calls and runs`}
            summary={summaryOf(charts.latency)}
            times={times}
            series={charts.latency}
            bucket={bucket}
          />
        </div>
      </div>

      <div className="grid gap-4 xl:grid-cols-2">
        <FigureTable
          title="By agent"
          headers={[
            "Agent",
            "Runs",
            "Model calls",
            "Tokens in",
            "Tokens out",
            "Cost",
            "Errors",
            "p50",
            "p95",
          ]}
          rows={analytics.by_agent.map((entry) => [
            entry.agent || "(unknown)",
            formatCount(entry.runs),
            formatCount(entry.model_calls),
            formatCount(entry.input_tokens),
            formatCount(entry.output_tokens),
            formatUsd(entry.cost_usd),
            formatCount(entry.errors),
            formatMs(entry.latency_p50_ms),
            formatMs(entry.latency_p95_ms),
          ])}
        />
        <FigureTable
          title="By model"
          headers={["Model", "Calls", "Tokens in", "Tokens out", "Cost", "Errors", "p50", "p95"]}
          rows={analytics.by_model.map((entry) => [
            entry.model,
            formatCount(entry.model_calls),
            formatCount(entry.input_tokens),
            formatCount(entry.output_tokens),
            formatUsd(entry.cost_usd),
            formatCount(entry.errors),
            formatMs(entry.latency_p50_ms),
            formatMs(entry.latency_p95_ms),
          ])}
        />
        <FigureTable
          title="By tool"
          headers={["Tool", "Calls", "Errors", "p50", "p95"]}
          rows={analytics.by_tool.map((entry) => [
            entry.tool,
            formatCount(entry.calls),
            formatCount(entry.errors),
            formatMs(entry.latency_p50_ms),
            formatMs(entry.latency_p95_ms),
          ])}
        />
        <Outcomes outcomes={outcomes} />
      </div>
      <EvalPassRates projectId={projectId} suites={evals} />
    </div>
  );
}

function FigureTable({ title, headers, rows }: { title: string; headers: string[]; rows: string[][] }) {
  return (
    <section aria-label={title} className="overflow-hidden rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">{title}</h2>
      {rows.length === 0 ? (
        <p className="px-4 py-3 text-sm text-muted">None in this range.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm tabular-nums">
            <thead>
              <tr className="text-left text-xs text-muted">
                {headers.map((header, index) => (
                  <th
                    key={header}
                    scope="col"
                    className={`px-3 py-1.5 font-medium ${index > 0 ? "text-right" : ""}`}
                  >
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {rows.map((row) => (
                <tr key={row[0]}>
                  {row.map((cell, index) =>
                    index === 0 ? (
                      <th
                        key={headers[index]}
                        scope="row"
                        className="max-w-48 truncate px-3 py-1.5 text-left font-mono font-normal"
                        title={cell}
                      >
                        {cell}
                      </th>
                    ) : (
                      <td key={headers[index]} className="px-3 py-1.5 text-right">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Outcomes({ outcomes }: { outcomes: ProjectOutcomes }) {
  const { approvals } = outcomes;
  return (
    <section aria-label="How runs ended" className="rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">How runs ended</h2>
      <div className="grid gap-4 px-4 py-3 text-sm sm:grid-cols-2">
        <Reasons title="Ended as" rows={outcomes.ended.map((entry) => [entry.status, entry.runs])} />
        <Reasons
          title="Stop reasons"
          rows={outcomes.stop_reasons.map((entry) => [entry.reason, entry.runs])}
        />
        <Reasons title="Failures" rows={outcomes.failures.map((entry) => [entry.reason, entry.runs])} />
        <div>
          <h3 className="text-xs font-medium text-muted">Approvals</h3>
          {approvals.requested === 0 ? (
            <p className="mt-1 text-muted">None requested.</p>
          ) : (
            <p className="mt-1 tabular-nums">
              {formatCount(approvals.requested)} requested · {formatCount(approvals.approved)} approved ·{" "}
              {formatCount(approvals.denied)} denied · {formatCount(approvals.pending)} pending
              <br />
              wait p50 {formatMs(approvals.wait.p50_ms)} · p95 {formatMs(approvals.wait.p95_ms)}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

function Reasons({ title, rows }: { title: string; rows: [string, number][] }) {
  return (
    <div className="min-w-0">
      <h3 className="text-xs font-medium text-muted">{title}</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-muted">None.</p>
      ) : (
        <ul className="mt-1 space-y-0.5">
          {rows.map(([reason, count]) => (
            <li key={reason} className="flex gap-2">
              <span className="min-w-0 flex-1 truncate" title={reason}>
                {reason}
              </span>
              <span className="tabular-nums">{formatCount(count)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
