"use client";
// A project's root threads (status, agent, start time, link to the live view) and the form that
// starts a new run of an ai_human agent, then opens it.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { ApiError, createApiClient } from "@/lib/api/client";
import type { ThreadSummary } from "@/lib/api/schemas";
import { Button } from "../ui/Button";
import { formatCreatedAt } from "./format";
import { StatusBadge } from "./StatusBadge";

const api = createApiClient();
const REFRESH_MS = 5000;

function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function ThreadsPanel({ projectId, chatAgents }: { projectId: string; chatAgents: string[] }) {
  const router = useRouter();
  const [threads, setThreads] = useState<ThreadSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [agentId, setAgentId] = useState(chatAgents[0] ?? "");
  const [message, setMessage] = useState("");
  const [starting, setStarting] = useState(false);

  const load = useCallback(async () => {
    try {
      setThreads((await api.threads.listRoots(projectId)).threads);
      setLoadError(null);
    } catch (error) {
      setLoadError(describeError(error));
    }
  }, [projectId]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  async function startRun(event: FormEvent) {
    event.preventDefault();
    if (!agentId) {
      setRunError("Pick an agent to run.");
      return;
    }
    setStarting(true);
    setRunError(null);
    try {
      const created = await api.threads.create({ projectId, agentId, message: message.trim() || undefined });
      router.push(`/threads/${created.threadId}`);
    } catch (error) {
      setRunError(describeError(error));
      setStarting(false);
    }
  }

  return (
    <section aria-label="Threads" className="rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">
        Threads <span className="text-muted">({threads?.length ?? 0})</span>
      </h2>
      <form
        onSubmit={startRun}
        aria-label="Run an agent"
        className="flex flex-wrap gap-2 border-b border-border px-4 py-3"
      >
        <label htmlFor="run-agent" className="sr-only">
          Agent
        </label>
        <select
          id="run-agent"
          value={agentId}
          onChange={(event) => setAgentId(event.target.value)}
          disabled={chatAgents.length === 0}
          className="h-8 rounded-md border border-border bg-surface px-2 font-mono text-sm"
        >
          {chatAgents.length === 0 ? <option value="">No ai_human agents</option> : null}
          {chatAgents.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label htmlFor="run-message" className="sr-only">
          First message
        </label>
        <input
          id="run-message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          placeholder="First message (optional)"
          className="h-8 min-w-48 flex-1 rounded-md border border-border bg-surface px-2.5 outline-none focus:border-accent"
        />
        <Button type="submit" tone="primary" disabled={starting || chatAgents.length === 0}>
          {starting ? "Starting…" : "Run"}
        </Button>
      </form>
      {runError ? (
        <p
          role="alert"
          className="mx-4 mt-2 rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger"
        >
          {runError}
        </p>
      ) : null}
      {loadError ? (
        <p role="alert" className="px-4 py-3 text-danger">
          Could not load threads: {loadError}
        </p>
      ) : threads === null ? (
        <p className="px-4 py-3 text-muted">Loading threads…</p>
      ) : threads.length === 0 ? (
        <p className="px-4 py-3 text-muted">No runs yet. Pick an agent above and press “Run”.</p>
      ) : (
        <ul aria-label="Root threads" className="divide-y divide-border">
          {threads.map((thread) => (
            <li key={thread.id} className="flex items-center gap-3 px-4 py-2">
              <StatusBadge status={thread.status} />
              <span className="font-mono text-sm">{thread.agent_id}</span>
              <span className="text-xs text-muted">{formatCreatedAt(thread.created_at)}</span>
              <Link href={`/threads/${thread.id}`} className="ml-auto text-sm underline">
                Open thread {thread.id.slice(0, 8)}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
