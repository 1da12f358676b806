"use client";
// "Add to eval suite…" on a thread page: pick one of the project's suites (for this run's agent
// first) and the run's user turns become a new case of it (POST …/cases/from-thread); the suite page
// then opens with the new case in its editor, ready for its assertions.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import type { SuiteListEntry } from "@/lib/evals/eval-shapes";
import { Button } from "../ui/Button";
import { Dialog, DialogHeader } from "../ui/Dialog";
import { suiteHref } from "./EvalsHome";
import { describeApiError, ErrorNote } from "./eval-ui";

const api = createApiClient();

export function AddToSuiteDialog({
  open,
  onClose,
  projectId,
  threadId,
  agentId,
}: {
  open: boolean;
  onClose(): void;
  projectId: string;
  threadId: string;
  agentId: string;
}) {
  const router = useRouter();
  const [suites, setSuites] = useState<SuiteListEntry[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = useId();

  useEffect(() => {
    if (!open) return;
    let current = true;
    setSuites(null);
    setError(null);
    api.evals
      .list(projectId)
      .then((listed) => {
        if (!current) return;
        // This run's agent's suites first: a case of another agent's suite would run another agent.
        const sorted = [...listed].sort(
          (a, b) =>
            Number(b.agent_id === agentId) - Number(a.agent_id === agentId) || a.name.localeCompare(b.name),
        );
        setSuites(sorted);
        setChosen(sorted.find((suite) => suite.agent_id === agentId)?.id ?? sorted[0]?.id ?? null);
      })
      .catch((caught) => {
        if (current) setError(describeApiError(caught, "Could not load the eval suites."));
      });
    return () => {
      current = false;
    };
  }, [open, projectId, agentId]);

  async function add() {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      const created = await api.evals.caseFromThread(projectId, chosen, threadId);
      router.push(
        `${suiteHref(projectId, chosen)}${created.id ? `?case=${encodeURIComponent(created.id)}` : ""}`,
      );
      onClose();
    } catch (caught) {
      setError(describeApiError(caught, "Could not add the case."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} label="Add to eval suite" onClose={onClose} className="w-[32rem]">
      <DialogHeader title="Add to eval suite" onClose={onClose} />
      <div className="flex flex-col gap-3 px-4 py-3">
        <p className="text-muted">
          This run’s user turns become a new case; then add the assertions its result must meet.
        </p>
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        {suites === null && !error ? (
          <p role="status" className="text-muted">
            Loading the suites…
          </p>
        ) : suites && suites.length === 0 ? (
          <p>
            This project has no eval suite yet.{" "}
            <Link href={`/projects/${encodeURIComponent(projectId)}/evals`} className="text-accent underline">
              Create one in Evals
            </Link>
            , then come back to this run.
          </p>
        ) : suites ? (
          <fieldset>
            <legend className="mb-1 font-medium">Suite</legend>
            <ul className="flex max-h-64 flex-col gap-1 overflow-auto">
              {suites.map((suite) => (
                <li key={suite.id}>
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      name={name}
                      checked={chosen === suite.id}
                      onChange={() => setChosen(suite.id)}
                    />
                    <span className="font-medium">{suite.name}</span>
                    <span className="text-xs text-muted">
                      agent <span className="font-mono">{suite.agent_id}</span> · {suite.cases} case
                      {suite.cases === 1 ? "" : "s"}
                      {suite.agent_id === agentId ? "" : " · another agent"}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}
      </div>
      <div className="flex justify-end gap-2 border-t border-border px-4 py-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button tone="primary" disabled={!chosen || busy} onClick={() => void add()}>
          {busy ? "Adding…" : "Add case"}
        </Button>
      </div>
    </Dialog>
  );
}
