"use client";
// A project's Evals view (docs/evals.md): its suites — agent, cases, last run's pass rate — a form to
// start a new suite for one of the project's agents, and, when the project was made from a template
// that ships suites, one click to add them. Loading, empty and error states say what to do next.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import { describeUserSide, formatRate } from "@/lib/evals/describe";
import type { EvalSuite, SuiteListEntry } from "@/lib/evals/eval-shapes";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { Button } from "../ui/Button";
import { describeApiError, ErrorNote } from "./eval-ui";
import { RunStatusBadge } from "./RunStatusBadge";

const api = createApiClient();

export function suiteHref(projectId: string, suiteId: string): string {
  return `/projects/${encodeURIComponent(projectId)}/evals/${encodeURIComponent(suiteId)}`;
}

export function EvalsHome({
  projectId,
  agents,
  starterSuites,
}: {
  projectId: string;
  /** The agents of the project's latest saved version. */
  agents: string[];
  /** Suites of the template the project was made from, whose agent the project has. */
  starterSuites: { template: string; suite: EvalSuite }[];
}) {
  const router = useRouter();
  const [suites, setSuites] = useState<SuiteListEntry[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState("");
  const [agent, setAgent] = useState(agents[0] ?? "");
  const nameId = useId();
  const agentId = useId();
  // Creating a suite is an editor's (the role table); others see the form disabled and why.
  const refused = refusal(usePermission("editSuites", projectId));

  const load = useCallback(async () => {
    try {
      setSuites(await api.evals.list(projectId));
      setLoadError(null);
    } catch (caught) {
      setLoadError(describeApiError(caught, "Could not load the eval suites."));
    }
  }, [projectId]);

  useEffect(() => {
    void load();
  }, [load]);

  async function create(suite: EvalSuite) {
    setBusy(true);
    setActionError(null);
    try {
      const created = await api.evals.create(projectId, suite);
      if (created.id) router.push(suiteHref(projectId, created.id));
      else await load();
    } catch (caught) {
      setActionError(describeApiError(caught, "Could not create the suite."));
    } finally {
      setBusy(false);
    }
  }

  const offered = starterSuites.filter(
    (starter) => !suites?.some((existing) => existing.name === starter.suite.name),
  );
  const trimmed = name.trim();
  const nameTaken = suites?.some((existing) => existing.name === trimmed) ?? false;

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby={`${nameId}-suites`} className="rounded-lg border border-border bg-surface">
        <h2 id={`${nameId}-suites`} className="border-b border-border px-4 py-2 font-medium">
          Suites
        </h2>
        {loadError ? (
          <div className="p-4">
            <ErrorNote>
              {loadError}{" "}
              <button type="button" className="underline" onClick={() => void load()}>
                Try again
              </button>
            </ErrorNote>
          </div>
        ) : suites === null ? (
          <p role="status" className="px-4 py-6 text-sm text-muted" data-testid="evals-loading">
            Loading the suites…
          </p>
        ) : suites.length === 0 ? (
          <div className="px-4 py-6 text-sm" data-testid="evals-empty">
            <p className="font-medium">No eval suites yet.</p>
            <p className="mt-1 max-w-2xl text-muted">
              A suite is a set of conversations with one agent — fixed user turns or a simulated user — and
              the checks each must pass. Run it after every edit to see at once which cases a change fixed or
              broke.
            </p>
          </div>
        ) : (
          <table className="w-full text-sm" aria-label="Eval suites">
            <thead className="text-left text-xs text-muted">
              <tr className="border-b border-border">
                <th scope="col" className="px-4 py-2 font-medium">
                  Suite
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Agent
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Cases
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Last run
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {suites.map((suite) => (
                <tr key={suite.id} data-testid="suite-row">
                  <td className="px-4 py-2">
                    <Link href={suiteHref(projectId, suite.id)} className="font-medium text-accent underline">
                      {suite.name}
                    </Link>
                  </td>
                  <td className="px-4 py-2 font-mono">{suite.agent_id}</td>
                  <td className="px-4 py-2 text-right tabular-nums">{suite.cases}</td>
                  <td className="px-4 py-2">
                    {suite.last_run ? (
                      <span className="flex items-center gap-2">
                        {suite.last_run.status ? <RunStatusBadge status={suite.last_run.status} /> : null}
                        <span className="tabular-nums">
                          {suite.last_run.summary
                            ? `${formatRate(suite.last_run.summary.pass_rate)} passed`
                            : ""}
                        </span>
                        {typeof suite.last_run.version === "number" ? (
                          <span className="text-muted">on version {suite.last_run.version}</span>
                        ) : null}
                      </span>
                    ) : (
                      <span className="text-muted">Never run</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {offered.length > 0 ? (
        <section
          aria-label="Suites from the template"
          className="rounded-lg border border-accent/40 bg-accent/5 px-4 py-3 text-sm"
        >
          {offered.map((starter) => (
            <div key={starter.suite.name} className="flex flex-wrap items-center gap-3">
              <p className="min-w-64 flex-1">
                The <span className="font-medium">{starter.template}</span> template ships a suite,{" "}
                <span className="font-medium">{starter.suite.name}</span>, for agent{" "}
                <span className="font-mono">{starter.suite.agent_id}</span>: {starter.suite.cases.length}{" "}
                cases (
                {starter.suite.cases.map((evalCase) => describeUserSide(evalCase).split(":")[0]).join(", ")}).
              </p>
              <Gated reason={refused}>
                <Button
                  tone="primary"
                  disabled={busy || refused !== null}
                  onClick={() => void create(starter.suite)}
                >
                  Add suite “{starter.suite.name}”
                </Button>
              </Gated>
            </div>
          ))}
        </section>
      ) : null}

      <section aria-labelledby={`${nameId}-new`} className="rounded-lg border border-border bg-surface">
        <h2 id={`${nameId}-new`} className="border-b border-border px-4 py-2 font-medium">
          New suite
        </h2>
        {agents.length === 0 ? (
          <p className="px-4 py-3 text-sm text-muted">
            A suite runs one agent of the latest saved version, and this project has none yet: draw and save
            an agent in the studio first.
          </p>
        ) : (
          <form
            className="flex flex-wrap items-end gap-3 px-4 py-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (!trimmed || nameTaken || refused) return;
              void create({
                name: trimmed,
                agent_id: agent,
                cases: [{ name: "first case", input: { messages: ["Hello"] }, assertions: [] }],
                assertions: [],
              });
            }}
          >
            <label htmlFor={nameId} className="flex flex-col gap-1 text-sm">
              Name
              <input
                id={nameId}
                value={name}
                onChange={(event) => setName(event.target.value)}
                placeholder="refunds"
                aria-invalid={nameTaken || undefined}
                className="h-8 w-56 rounded-md border border-border bg-surface px-2"
              />
            </label>
            <label htmlFor={agentId} className="flex flex-col gap-1 text-sm">
              Agent
              <select
                id={agentId}
                value={agent}
                onChange={(event) => setAgent(event.target.value)}
                className="h-8 rounded-md border border-border bg-surface px-2 font-mono"
              >
                {agents.map((candidate) => (
                  <option key={candidate} value={candidate}>
                    {candidate}
                  </option>
                ))}
              </select>
            </label>
            <Gated reason={refused}>
              <Button
                type="submit"
                tone="primary"
                disabled={busy || !trimmed || nameTaken || refused !== null}
              >
                Create suite
              </Button>
            </Gated>
            {nameTaken ? <p className="text-sm text-danger">A suite of this project has that name.</p> : null}
          </form>
        )}
        {actionError ? (
          <div className="px-4 pb-3">
            <ErrorNote>{actionError}</ErrorNote>
          </div>
        ) : null}
      </section>
    </div>
  );
}
