"use client";
// Two runs side by side (issue 21 "Diff"): a header with each run's tokens, cost, model calls,
// latency and duration and the change from A to B, then every step of GET /api/threads/diff — the
// roots' messages and, after the call that spawned them, each pair of children's — aligned in two
// columns. Differing steps are marked; the first divergence is highlighted and scrolled to (focused
// only when the reader asks, with "Jump to it"). When a run does not exist, a link leads back.
import Link from "next/link";
import { Fragment, useCallback, useEffect, useRef, useState } from "react";
import { ApiError, createApiClient } from "@/lib/api/client";
import type { DiffStepWire, RunMessageWire, RunSummary, ThreadDiffWire } from "@/lib/contracts/run-diff";
import { Button } from "../ui/Button";
import type { AgentInfo } from "./agent-info";
import {
  childPathLabel,
  describeFirstDivergence,
  describeStepDifference,
  formatDelta,
  formatMilliseconds,
  formatUsd,
} from "./diff-format";
import type { SideLabels } from "./MessageRow";
import { threadStatusLabel } from "./status-label";

const api = createApiClient();

type Load =
  | { kind: "loading" }
  | { kind: "error"; message: string; notFound: boolean }
  | { kind: "ready"; diff: ThreadDiffWire };

/** The labels of the sides of each thread's agent, by thread id: a dual_ai side speaks by its name. */
type SideLabelsOf = ReadonlyMap<string, SideLabels>;

function speaker(message: RunMessageWire, sideLabelsOf: SideLabelsOf): string {
  if (message.role === "tool") return `Tool result${message.name ? ` · ${message.name}` : ""}`;
  if (message.role === "system") return "System";
  // In a dual_ai thread each side sees the other as "user": the side's name says who spoke.
  const labels = sideLabelsOf.get(message.thread_id);
  if (labels && message.side) return labels[message.side];
  // A human chat writes users on side b and the assistant on side a: only other sides say more.
  if (message.role === "user") return message.side === "a" ? "User · side a" : "User";
  return message.side === "b" ? "Assistant · side b" : "Assistant";
}

function MessageCell({
  message,
  label,
  sideLabelsOf,
}: {
  message: RunMessageWire | null;
  label: string;
  sideLabelsOf: SideLabelsOf;
}) {
  if (!message) {
    return (
      <div className="rounded-md border border-border border-dashed bg-surface px-3 py-2 text-muted">
        <span className="sr-only">{label}: </span>— no message here —
      </div>
    );
  }
  return (
    <div className="min-w-0 rounded-md border border-border bg-surface px-3 py-2">
      <div className="mb-1 flex items-center gap-2 text-xs text-muted">
        <span className="font-medium">
          <span className="sr-only">{label}: </span>
          {speaker(message, sideLabelsOf)}
        </span>
        {message.silent ? <span className="rounded border border-border px-1">silent</span> : null}
        {message.tool_status === "error" ? <span className="text-danger">error</span> : null}
      </div>
      {message.content ? (
        <p className="max-h-64 overflow-y-auto whitespace-pre-wrap break-words text-sm">{message.content}</p>
      ) : null}
      {(message.tool_calls ?? []).map((call) => (
        <p key={call.id} className="mt-1 break-all font-mono text-xs" title={call.arguments}>
          → {call.name}({call.arguments.length > 160 ? `${call.arguments.slice(0, 160)}…` : call.arguments})
        </p>
      ))}
      {message.attachments.length > 0 ? (
        <p className="mt-1 text-xs text-muted">Attachments: {message.attachments.join(", ")}</p>
      ) : null}
    </div>
  );
}

function RunHeading({ run, label }: { run: RunSummary; label: string }) {
  return (
    <div className="min-w-0">
      <div className="text-xs font-semibold uppercase tracking-wide text-muted">{label}</div>
      <Link
        href={`/threads/${run.id}`}
        className="block truncate font-medium text-accent underline"
        title={run.id}
      >
        {run.name ?? run.agent_id} <span className="font-mono text-xs">{run.id.slice(0, 8)}</span>
      </Link>
      <div className="text-xs text-muted">
        {run.agent_id} · {threadStatusLabel(run.status)} · {run.threads} thread{run.threads === 1 ? "" : "s"}
      </div>
    </div>
  );
}

function Figures({ a, b }: { a: RunSummary; b: RunSummary }) {
  const rows: { label: string; a: number; b: number; format: (value: number) => string }[] = [
    {
      label: "Input tokens",
      a: a.subtree_usage.input_tokens,
      b: b.subtree_usage.input_tokens,
      format: String,
    },
    {
      label: "Output tokens",
      a: a.subtree_usage.output_tokens,
      b: b.subtree_usage.output_tokens,
      format: String,
    },
    { label: "Cost", a: a.subtree_usage.cost_usd, b: b.subtree_usage.cost_usd, format: formatUsd },
    { label: "Model calls", a: a.model_calls, b: b.model_calls, format: String },
    { label: "Model latency", a: a.model_latency_ms, b: b.model_latency_ms, format: formatMilliseconds },
    { label: "Duration", a: a.duration_ms, b: b.duration_ms, format: formatMilliseconds },
  ];
  return (
    <table aria-label="Run figures" className="w-full text-sm">
      <thead>
        <tr className="text-left text-xs text-muted">
          <th className="py-1 pr-4 font-medium">Whole tree</th>
          <th className="py-1 pr-4 font-medium">Run A</th>
          <th className="py-1 pr-4 font-medium">Run B</th>
          <th className="py-1 font-medium">B − A</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label} className="border-t border-border">
            <th scope="row" className="py-1 pr-4 text-left font-normal text-muted">
              {row.label}
            </th>
            <td className="py-1 pr-4 tabular-nums">{row.format(row.a)}</td>
            <td className="py-1 pr-4 tabular-nums">{row.format(row.b)}</td>
            <td
              className="py-1 tabular-nums"
              data-testid={`delta-${row.label.toLowerCase().replaceAll(" ", "-")}`}
            >
              {formatDelta(row.a, row.b, row.format)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function StepRow({
  step,
  first,
  sideLabelsOf,
}: {
  step: DiffStepWire;
  first: boolean;
  sideLabelsOf: SideLabelsOf;
}) {
  const indent = step.path.length;
  return (
    <li
      id={`step-${step.index}`}
      tabIndex={-1}
      data-testid="diff-step"
      data-index={step.index}
      data-same={step.same}
      aria-label={`Step ${step.index + 1}${step.same ? "" : first ? ", first divergence" : ", differs"}`}
      className={`grid grid-cols-[4.5rem_minmax(0,1fr)_minmax(0,1fr)] gap-2 rounded-md px-2 py-1.5 outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
        step.same ? "" : first ? "border-l-4 border-warning bg-warning/15 pl-1" : "bg-warning/10"
      }`}
      style={indent > 0 ? { marginLeft: `${Math.min(indent, 4) * 1.25}rem` } : undefined}
    >
      <div className={`pt-2 text-xs tabular-nums ${step.same ? "text-muted" : "text-text"}`}>
        <div>#{step.index + 1}</div>
        {step.same ? null : (
          <div className="font-medium text-text" title={describeStepDifference(step)}>
            {first ? "first diff" : "differs"}
          </div>
        )}
      </div>
      <MessageCell message={step.a} label="Run A" sideLabelsOf={sideLabelsOf} />
      <MessageCell message={step.b} label="Run B" sideLabelsOf={sideLabelsOf} />
    </li>
  );
}

export function RunDiffView({
  a,
  b,
  backLink,
  agents = {},
}: {
  a: string;
  b: string;
  /** The project's agents: their side labels name who spoke in a dual_ai thread. */
  agents?: Readonly<Record<string, AgentInfo>>;
  /** Where to go when a run is missing: the run that exists, else its project, else the projects. */
  backLink: { href: string; label: string };
}) {
  const [load, setLoad] = useState<Load>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  const scrolled = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the Try again trigger.
  useEffect(() => {
    let cancelled = false;
    setLoad({ kind: "loading" });
    api.threads
      .diff(a, b)
      .then((diff) => {
        if (!cancelled) setLoad({ kind: "ready", diff });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setLoad({
          kind: "error",
          message: error instanceof Error ? error.message : String(error),
          notFound: error instanceof ApiError && error.status === 404,
        });
      });
    return () => {
      cancelled = true;
    };
  }, [a, b, attempt]);

  // "Jump to it" moves the focus too, so the keyboard continues from the step; on load the step is
  // only scrolled into view (the focus stays at the top of the page, where a reader starts).
  const jump = useCallback((index: number, takeFocus: boolean) => {
    const element = document.getElementById(`step-${index}`);
    element?.scrollIntoView({ block: "center" });
    if (takeFocus) element?.focus({ preventScroll: true });
  }, []);

  const divergence = load.kind === "ready" ? load.diff.first_divergence : null;
  useEffect(() => {
    if (divergence === null || scrolled.current) return;
    scrolled.current = true;
    jump(divergence, false);
  }, [divergence, jump]);

  if (load.kind === "loading") {
    return (
      <p role="status" className="p-6 text-muted">
        Aligning the two runs…
      </p>
    );
  }
  if (load.kind === "error") {
    return (
      <div role="alert" className="m-6 max-w-2xl rounded-md border border-danger/40 bg-danger/5 p-4">
        <p className="font-medium text-danger">
          {load.notFound ? "One of these threads does not exist." : "The comparison could not be loaded."}
        </p>
        <p className="mt-1 text-sm">{load.message}</p>
        <div className="mt-3 flex items-center gap-3">
          {load.notFound ? null : <Button onClick={() => setAttempt((value) => value + 1)}>Try again</Button>}
          <Link href={backLink.href} className="font-medium text-accent underline">
            {backLink.label}
          </Link>
        </div>
      </div>
    );
  }
  const { diff } = load;
  const childAt = new Map(
    diff.children.filter((pair) => pair.first_step !== null).map((pair) => [pair.first_step!, pair]),
  );
  const differing = diff.steps.filter((step) => !step.same).length;
  const sideLabelsOf = dualSideLabels(diff, agents);
  return (
    <div className="mx-auto flex w-full max-w-[110rem] flex-col gap-4 p-4">
      <section
        aria-label="Runs"
        className="grid gap-4 rounded-lg border border-border bg-surface p-4 lg:grid-cols-[1fr_1fr_minmax(24rem,1.4fr)]"
      >
        <RunHeading run={diff.threads.a} label="Run A" />
        <RunHeading run={diff.threads.b} label="Run B" />
        <Figures a={diff.threads.a} b={diff.threads.b} />
      </section>
      <div
        role="status"
        data-testid="diff-summary"
        className="flex flex-wrap items-center gap-3 rounded-md border border-border bg-surface px-4 py-2"
      >
        {diff.steps.length === 0 ? (
          <span>Neither run has any messages yet.</span>
        ) : divergence === null ? (
          <span>
            <span className="font-medium">No divergence</span>: all {diff.steps.length} steps are the same.
          </span>
        ) : (
          <>
            <span>
              <span className="font-medium">{describeFirstDivergence(diff.steps[divergence]!)}</span>{" "}
              {differing} of {diff.steps.length} steps differ.
            </span>
            <Button size="compact" onClick={() => jump(divergence, true)}>
              Jump to it
            </Button>
          </>
        )}
        <span className="ml-auto text-xs text-muted">
          Ids and timestamps are ignored; thread ids in text count by place in the tree.
        </span>
      </div>
      {diff.steps.length > 0 ? (
        <>
          <div
            className="grid grid-cols-[4.5rem_minmax(0,1fr)_minmax(0,1fr)] gap-2 px-2 text-xs font-semibold uppercase tracking-wide text-muted"
            aria-hidden="true"
          >
            <span>Step</span>
            <span>Run A</span>
            <span>Run B</span>
          </div>
          <ol aria-label="Aligned steps" className="flex flex-col gap-1">
            {diff.steps.map((step) => {
              const pair = childAt.get(step.index);
              return (
                <Fragment key={step.index}>
                  {pair ? (
                    <li
                      aria-label={`Subagent ${childPathLabel(pair.path)}`}
                      className="mt-2 rounded-md border border-border bg-surface-muted px-3 py-1 text-xs"
                      style={{ marginLeft: `${Math.min(pair.path.length, 4) * 1.25}rem` }}
                    >
                      <span className="font-medium">Subagent, {childPathLabel(pair.path)}</span>: A{" "}
                      {pair.a
                        ? `${pair.a.name ?? pair.a.agent} (${threadStatusLabel(pair.a.status)})`
                        : "— none —"}{" "}
                      · B{" "}
                      {pair.b
                        ? `${pair.b.name ?? pair.b.agent} (${threadStatusLabel(pair.b.status)})`
                        : "— none —"}
                    </li>
                  ) : null}
                  <StepRow step={step} first={step.index === divergence} sideLabelsOf={sideLabelsOf} />
                </Fragment>
              );
            })}
          </ol>
        </>
      ) : null}
    </div>
  );
}

/** The side labels of every dual_ai thread of both runs (roots and children), by thread id. */
function dualSideLabels(diff: ThreadDiffWire, agents: Readonly<Record<string, AgentInfo>>): SideLabelsOf {
  const labels = new Map<string, SideLabels>();
  const add = (threadId: string, agentId: string) => {
    const agent = agents[agentId];
    if (agent?.type === "dual_ai") labels.set(threadId, agent.sideLabels);
  };
  add(diff.threads.a.id, diff.threads.a.agent_id);
  add(diff.threads.b.id, diff.threads.b.agent_id);
  for (const pair of diff.children) {
    if (pair.a) add(pair.a.thread_id, pair.a.agent);
    if (pair.b) add(pair.b.thread_id, pair.b.agent);
  }
  return labels;
}
