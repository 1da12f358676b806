"use client";
// One eval suite: its cases (user side and assertions; add, edit in a form or as JSON, delete), the
// suite's own assertions, Run (version, repetitions) with a live progress bar and Cancel, the chosen
// run's summary and results, and the suite's runs to compare two of, with the pass rate per version.
// The run shown is in the address (?run=), so a reload or a shared link shows the same run.
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useId, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import type { VersionEntry } from "@/lib/contracts/version";
import { newCase } from "@/lib/evals/case-json";
import { describeAssertion, describeUserSide, progressText } from "@/lib/evals/describe";
import { type EvalCase, type EvalRun, type EvalSuite, EvalSuiteSchema } from "@/lib/evals/eval-shapes";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { Button } from "../ui/Button";
import { Dialog, DialogHeader } from "../ui/Dialog";
import { CaseEditor } from "./CaseEditor";
import { describeApiError, ErrorNote } from "./eval-ui";
import { RunHistory, useRunHistory } from "./RunHistory";
import { RunResults, SummaryFigures } from "./RunResults";
import { RunStatusBadge } from "./RunStatusBadge";
import { useEvalRun } from "./useEvalRun";

const api = createApiClient();
const MAX_REPETITIONS = 20;

function ProgressBar({ run }: { run: EvalRun }) {
  const done = run.progress?.done ?? 0;
  const total = run.progress?.total ?? 0;
  const share = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3">
      <div
        role="progressbar"
        aria-label="Run progress"
        aria-valuemin={0}
        aria-valuemax={total || 1}
        aria-valuenow={done}
        aria-valuetext={progressText(run)}
        className="h-2 min-w-40 flex-1 overflow-hidden rounded-full bg-surface-muted"
      >
        <div
          className="h-full rounded-full transition-[width] duration-300"
          style={{
            width: `${share * 100}%`,
            backgroundColor: `var(--status-${run.status === "running" ? "running" : run.status === "done" ? "completed" : run.status === "failed" ? "failed" : "stopped"})`,
          }}
        />
      </div>
      <span className="shrink-0 text-sm tabular-nums" data-testid="run-progress">
        {progressText(run)}
      </span>
    </div>
  );
}

function SuiteJsonDialog({
  suite,
  open,
  onClose,
  onSave,
}: {
  suite: EvalSuite;
  open: boolean;
  onClose(): void;
  onSave(next: EvalSuite): Promise<string | null>;
}) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  useEffect(() => {
    if (open) {
      setText(JSON.stringify(suite, null, 2));
      setProblem(null);
    }
  }, [open, suite]);
  return (
    <Dialog
      open={open}
      label="Edit the suite as JSON"
      onClose={onClose}
      className="w-[min(56rem,calc(100vw-2rem))]"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          let raw: unknown;
          try {
            raw = JSON.parse(text);
          } catch (error) {
            setProblem(`Not JSON: ${(error as Error).message}`);
            return;
          }
          const parsed = EvalSuiteSchema.safeParse(raw);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            setProblem(issue ? `${issue.path.join(".") || "the suite"}: ${issue.message}` : "Not a suite.");
            return;
          }
          void onSave(parsed.data).then(setProblem);
        }}
      >
        <DialogHeader title="Edit the suite as JSON" onClose={onClose} />
        <div className="p-4">
          <label htmlFor={id} className="flex flex-col gap-1 text-sm font-medium">
            Name, agent, cases (with their ids, to keep their results) and the assertions of every case
            <textarea
              id={id}
              rows={22}
              spellCheck={false}
              value={text}
              onChange={(event) => setText(event.target.value)}
              className="rounded-md border border-border bg-surface px-2 py-1 font-mono text-xs font-normal"
            />
          </label>
        </div>
        <div className="flex items-center gap-2 border-t border-border px-4 py-2">
          <div className="min-w-0 flex-1">{problem ? <ErrorNote>{problem}</ErrorNote> : null}</div>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" tone="primary">
            Save suite
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function SuiteView({
  projectId,
  suiteId,
  models,
  latestVersion,
}: {
  projectId: string;
  suiteId: string;
  /** The models of the project's latest version (a simulated user's or a judge's). */
  models: string[];
  latestVersion: number;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const runId = searchParams.get("run");
  const caseToOpen = searchParams.get("case");
  const [suite, setSuite] = useState<EvalSuite | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ evalCase: EvalCase; index: number | null } | null>(null);
  const [editingJson, setEditingJson] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [versions, setVersions] = useState<VersionEntry[]>([]);
  const [version, setVersion] = useState("latest");
  const [repetitionsText, setRepetitionsText] = useState("1");
  const [starting, setStarting] = useState(false);
  const { run, error: runError, setRun } = useEvalRun(runId);
  const history = useRunHistory(projectId, suiteId);
  const formId = useId();
  // Viewers read suites and runs; runners run and cancel; editors change the suite (the role table).
  const refusedEdit = refusal(usePermission("editSuites", projectId));
  const refusedRun = refusal(usePermission("runEval", projectId));
  const refusedCancel = refusal(usePermission("cancelEval", projectId));

  const load = useCallback(async () => {
    try {
      setSuite(await api.evals.get(projectId, suiteId));
      setLoadError(null);
    } catch (caught) {
      setLoadError(describeApiError(caught, "Could not load the suite."));
    }
  }, [projectId, suiteId]);

  useEffect(() => {
    void load();
    api.versions
      .list(projectId)
      .then(setVersions)
      .catch(() => setVersions([]));
  }, [load, projectId]);

  // The run shown, remembered with its latest status and pass rate (for the list and the chart).
  useEffect(() => {
    if (run) history.remember(run);
  }, [run, history.remember]);

  // "Add to eval suite…" on a thread page opens the new case here, ready for its assertions.
  useEffect(() => {
    if (!suite || !caseToOpen) return;
    const index = suite.cases.findIndex((evalCase) => evalCase.id === caseToOpen);
    if (index >= 0) setEditing({ evalCase: suite.cases[index]!, index });
    router.replace(runId ? `${pathname}?run=${encodeURIComponent(runId)}` : pathname, { scroll: false });
  }, [suite, caseToOpen, runId, pathname, router]);

  async function save(next: EvalSuite, done: string): Promise<string | null> {
    setActionError(null);
    try {
      const { id: _id, ...body } = next;
      const saved = await api.evals.save(projectId, suiteId, body);
      setSuite(saved);
      setNotice(done);
      return null;
    } catch (caught) {
      return describeApiError(caught, "Could not save the suite.");
    }
  }

  async function startRun(event: React.FormEvent) {
    event.preventDefault();
    const repetitions = Number(repetitionsText);
    if (!Number.isInteger(repetitions) || repetitions < 1 || repetitions > MAX_REPETITIONS) return;
    setStarting(true);
    setActionError(null);
    setNotice(null);
    try {
      const started = await api.evals.run(projectId, suiteId, {
        ...(version === "latest" ? {} : { version: Number(version) }),
        ...(repetitions > 1 ? { repetitions } : {}),
      });
      history.remember({
        ...started,
        version: started.version ?? (version === "latest" ? latestVersion : Number(version)),
      });
      setRun({ ...started, progress: started.progress ?? { done: 0, total: 0 } });
      router.replace(`${pathname}?run=${encodeURIComponent(started.id)}`, { scroll: false });
    } catch (caught) {
      setActionError(describeApiError(caught, "Could not start the run."));
    } finally {
      setStarting(false);
    }
  }

  async function cancel(id: string) {
    try {
      setRun(await api.evals.cancelRun(id));
    } catch (caught) {
      setActionError(describeApiError(caught, "Could not cancel the run."));
    }
  }

  async function removeSuite() {
    try {
      await api.evals.remove(projectId, suiteId);
      router.push(`/projects/${encodeURIComponent(projectId)}/evals`);
    } catch (caught) {
      setConfirmDelete(false);
      setActionError(describeApiError(caught, "Could not delete the suite."));
    }
  }

  if (loadError) {
    return (
      <div className="flex flex-col gap-3">
        <ErrorNote>{loadError}</ErrorNote>
        <Link href={`/projects/${encodeURIComponent(projectId)}/evals`} className="text-accent underline">
          Back to the suites
        </Link>
      </div>
    );
  }
  if (!suite) {
    return (
      <p role="status" className="text-sm text-muted" data-testid="suite-loading">
        Loading the suite…
      </p>
    );
  }

  const repetitions = Number(repetitionsText);
  const repetitionsValid =
    Number.isInteger(repetitions) && repetitions >= 1 && repetitions <= MAX_REPETITIONS;
  const running = run?.status === "running";

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-xl font-semibold break-words">{suite.name}</h1>
        <span className="text-sm text-muted">
          agent <span className="font-mono text-text">{suite.agent_id}</span> · {suite.cases.length} case
          {suite.cases.length === 1 ? "" : "s"}
        </span>
        <span className="ml-auto flex gap-2">
          <Gated reason={refusedEdit}>
            <Button disabled={refusedEdit !== null} onClick={() => setEditingJson(true)}>
              Edit as JSON
            </Button>
          </Gated>
          <Gated reason={refusedEdit}>
            <Button tone="danger" disabled={refusedEdit !== null} onClick={() => setConfirmDelete(true)}>
              Delete suite
            </Button>
          </Gated>
        </span>
      </div>
      {actionError ? <ErrorNote>{actionError}</ErrorNote> : null}
      {notice ? (
        <p role="status" className="text-sm text-muted">
          {notice}
        </p>
      ) : null}

      <section aria-label="Run" className="rounded-lg border border-border bg-surface">
        <h2 className="border-b border-border px-4 py-2 font-medium">Run</h2>
        <form
          onSubmit={(event) => void startRun(event)}
          className="flex flex-wrap items-center gap-3 px-4 py-3"
        >
          <label htmlFor={`${formId}-version`} className="text-sm">
            Version
          </label>
          <select
            id={`${formId}-version`}
            value={version}
            onChange={(event) => setVersion(event.target.value)}
            className="h-8 rounded-md border border-border bg-surface px-2 text-sm"
          >
            <option value="latest">latest saved (v{latestVersion})</option>
            {versions
              .filter((entry) => entry.version !== latestVersion)
              .map((entry) => (
                <option key={entry.version} value={entry.version}>
                  version {entry.version}
                </option>
              ))}
          </select>
          <label htmlFor={`${formId}-repetitions`} className="text-sm">
            Repetitions
          </label>
          <input
            id={`${formId}-repetitions`}
            type="number"
            min={1}
            max={MAX_REPETITIONS}
            value={repetitionsText}
            onChange={(event) => setRepetitionsText(event.target.value)}
            aria-invalid={!repetitionsValid || undefined}
            className={`h-8 w-16 rounded-md border bg-surface px-2 text-sm ${repetitionsValid ? "border-border" : "border-danger"}`}
          />
          <Gated reason={refusedRun}>
            <Button
              type="submit"
              tone="primary"
              disabled={
                starting || running || !repetitionsValid || suite.cases.length === 0 || refusedRun !== null
              }
            >
              {starting ? "Starting…" : running ? "Running…" : "Run suite"}
            </Button>
          </Gated>
          {run ? (
            <>
              <ProgressBar run={run} />
              <RunStatusBadge status={run.status} />
              {running ? (
                <Gated reason={refusedCancel}>
                  <Button tone="danger" disabled={refusedCancel !== null} onClick={() => void cancel(run.id)}>
                    Cancel run
                  </Button>
                </Gated>
              ) : null}
            </>
          ) : (
            <p className="text-sm text-muted">
              {suite.cases.length === 0
                ? "Add a case to run the suite."
                : "Each case runs as an ordinary thread of the version chosen; repetitions show whether it passes every time (pass^k)."}
            </p>
          )}
        </form>
        {!repetitionsValid ? (
          <p className="-mt-2 px-4 pb-3 text-xs text-danger">
            Enter a whole number from 1 to {MAX_REPETITIONS}.
          </p>
        ) : null}
        {runError ? (
          <div className="px-4 pb-3">
            <ErrorNote>{runError}</ErrorNote>
          </div>
        ) : null}
        {run ? (
          <div className="flex flex-col gap-3 border-t border-border py-3" data-testid="run-view">
            <p className="px-4 text-sm text-muted">
              Run <span className="font-mono">{run.id.slice(0, 8)}</span>
              {typeof run.version === "number" ? ` of version ${run.version}` : ""}
              {run.failure ? `: ${run.failure}` : ""}
            </p>
            {run.summary && run.status !== "running" ? (
              <div className="px-4">
                <SummaryFigures summary={run.summary} label="Run summary" />
              </div>
            ) : null}
            <RunResults run={run} cases={suite.cases} />
          </div>
        ) : null}
      </section>

      <section aria-label="Cases" className="rounded-lg border border-border bg-surface">
        <div className="flex items-center border-b border-border px-4 py-2">
          <h2 className="flex-1 font-medium">Cases</h2>
          <Gated reason={refusedEdit}>
            <Button
              size="compact"
              disabled={refusedEdit !== null}
              onClick={() =>
                setEditing({ evalCase: newCase(suite.cases.map((evalCase) => evalCase.name)), index: null })
              }
            >
              Add case
            </Button>
          </Gated>
        </div>
        {suite.cases.length === 0 ? (
          <p className="px-4 py-6 text-sm text-muted" data-testid="cases-empty">
            No cases yet. Add one here, or open a conversation that went wrong and choose “Add to eval suite…”
            to turn its user turns into a case.
          </p>
        ) : (
          <table className="w-full text-sm" aria-label="Cases of the suite">
            <thead className="text-left text-xs text-muted">
              <tr className="border-b border-border">
                <th scope="col" className="px-4 py-2 font-medium">
                  Case
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  User side
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  Assertions
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border align-top">
              {suite.cases.map((evalCase, index) => (
                <tr key={evalCase.id ?? evalCase.name} data-testid="case-row">
                  <th scope="row" className="px-4 py-2 text-left font-medium">
                    {evalCase.name}
                  </th>
                  <td className="max-w-md px-2 py-2">{describeUserSide(evalCase)}</td>
                  <td className="px-2 py-2">
                    {(evalCase.assertions ?? []).length === 0 ? (
                      <span className="text-muted">none</span>
                    ) : (
                      <ul className="flex flex-col gap-0.5">
                        {(evalCase.assertions ?? []).map((assertion, at) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: assertions keep their order.
                          <li key={at}>{describeAssertion(assertion)}</li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="px-4 py-2">
                    <span className="flex justify-end gap-1">
                      <Gated reason={refusedEdit}>
                        <Button
                          size="compact"
                          aria-label={`Edit ${evalCase.name}`}
                          disabled={refusedEdit !== null}
                          onClick={() => setEditing({ evalCase, index })}
                        >
                          Edit
                        </Button>
                      </Gated>
                      <Gated reason={refusedEdit}>
                        <Button
                          size="compact"
                          tone="danger"
                          aria-label={`Delete ${evalCase.name}`}
                          disabled={refusedEdit !== null}
                          onClick={() =>
                            void save(
                              { ...suite, cases: suite.cases.filter((_, at) => at !== index) },
                              `Deleted case “${evalCase.name}”.`,
                            ).then((failed) => setActionError(failed))
                          }
                        >
                          Delete
                        </Button>
                      </Gated>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="border-t border-border px-4 py-2 text-sm">
          <span className="text-muted">Every case also checks: </span>
          {(suite.assertions ?? []).length === 0
            ? "nothing more (add suite-wide assertions with Edit as JSON)."
            : (suite.assertions ?? []).map(describeAssertion).join("; ")}
        </div>
      </section>

      <RunHistory
        projectId={projectId}
        suiteId={suiteId}
        history={history.runs}
        loadError={history.loadError}
        shownRunId={runId}
      />

      <CaseEditor
        open={editing !== null}
        initial={editing?.evalCase ?? null}
        title={editing?.index === null ? "New case" : `Edit case “${editing?.evalCase.name ?? ""}”`}
        models={models}
        onClose={() => setEditing(null)}
        onSave={async (next) => {
          if (!editing) return null;
          const cases =
            editing.index === null
              ? [...suite.cases, next]
              : suite.cases.map((old, at) => (at === editing.index ? next : old));
          const failed = await save({ ...suite, cases }, `Saved case “${next.name}”.`);
          if (!failed) setEditing(null);
          return failed;
        }}
      />
      <SuiteJsonDialog
        suite={suite}
        open={editingJson}
        onClose={() => setEditingJson(false)}
        onSave={async (next) => {
          const failed = await save(next, "Saved the suite.");
          if (!failed) setEditingJson(false);
          return failed;
        }}
      />
      <Dialog
        open={confirmDelete}
        label="Delete the suite"
        onClose={() => setConfirmDelete(false)}
        className="w-[28rem]"
      >
        <DialogHeader title="Delete the suite" onClose={() => setConfirmDelete(false)} />
        <p className="px-4 py-3">
          Delete “{suite.name}” and its {suite.cases.length} case{suite.cases.length === 1 ? "" : "s"}? The
          threads its runs started stay.
        </p>
        <div className="flex justify-end gap-2 border-t border-border px-4 py-2">
          <Button onClick={() => setConfirmDelete(false)}>Keep it</Button>
          <Button tone="danger" onClick={() => void removeSuite()}>
            Delete suite
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
