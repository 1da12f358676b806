"use client";
// The live view of one root thread: the tree on the left, the selected thread's transcript on the
// right with the controls that fit it (chat with attachments and Stop for an ai_human root, a
// message box for a resumable subagent, Terminate for any thread). The header names the agent the
// thread runs now (after any handoff). One SSE stream feeds everything. What the signed-in user's
// role may not do (send, stop, terminate, approve, fork, replay, add to an eval suite) is disabled
// with the reason, or — the per-message fork buttons — left out (the role table, lib/access/roles.ts).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { ApiError, createApiClient } from "@/lib/api/client";
import type { ForkOrigin } from "@/lib/contracts/thread";
import {
  type LiveMessage,
  type LiveState,
  type LiveThread,
  selectPendingApprovals,
  selectRegistry,
  selectTelemetry,
  selectThread,
  selectTranscript,
  statusDetail,
} from "@/lib/live";
import { Gated } from "../access/Gated";
import { ProjectIdProvider } from "../access/ProjectIdContext";
import { refusal, usePermission } from "../access/permission";
import { AddToSuiteDialog } from "../evals/AddToSuiteDialog";
import { Button, buttonClasses } from "../ui/Button";
import { ApprovalsPanel } from "./ApprovalsPanel";
import type { AgentInfo } from "./agent-info";
import { CompareDialog, diffHref } from "./CompareDialog";
import { EffectsPanel } from "./EffectsPanel";
import { FilesPanel } from "./FilesPanel";
import { ForkDialog, type ForkRequest } from "./ForkDialog";
import { InspectorTabs } from "./InspectorTabs";
import { LiveTree } from "./LiveTree";
import { MessageForm, type MessageFormActions } from "./MessageForm";
import { ModelCallsPanel } from "./ModelCallsPanel";
import { ReplayBanner } from "./ReplayBanner";
import { type LatestReplayOffer, ReplayDialog } from "./ReplayDialog";
import { StatusBadge } from "./StatusBadge";
import { composerDraftKey } from "./session-text";
import { TerminateButton } from "./TerminateButton";
import { ThreadTimeline } from "./ThreadTimeline";
import { ToolCallsPanel } from "./ToolCallsPanel";
import { Transcript } from "./Transcript";
import { useLiveThread } from "./useLiveThread";
import { useTreeExpansion } from "./useTreeExpansion";

const api = createApiClient();

const INSPECTOR_TABS = [
  { id: "transcript", label: "Transcript" },
  { id: "timeline", label: "Timeline" },
  { id: "model-calls", label: "Model calls" },
  { id: "tool-calls", label: "Tool calls" },
  { id: "files", label: "Files" },
  { id: "effects", label: "Effects" },
] as const;
type InspectorTabId = (typeof INSPECTOR_TABS)[number]["id"];

function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function isResumableChild(state: LiveState, thread: LiveThread): boolean {
  if (!thread.parent_id) return false;
  return selectRegistry(state, thread.parent_id).some(
    (entry) => entry.reference === thread.id && entry.resumable,
  );
}

export function ThreadView(props: Parameters<typeof ThreadViewInProject>[0] & { projectId: string }) {
  const { projectId, ...rest } = props;
  return (
    <ProjectIdProvider projectId={projectId}>
      <ThreadViewInProject {...rest} />
    </ProjectIdProvider>
  );
}

function ThreadViewInProject({
  rootId,
  initialSelectedId,
  agents,
  forkedFrom = null,
  isReplay = false,
  replayLatest = null,
  traceUrl = null,
}: {
  rootId: string;
  initialSelectedId: string;
  agents: Record<string, AgentInfo>;
  /** Where this root was forked from (its stored fork link, with the source's name and message number). */
  forkedFrom?: ForkOrigin | null;
  /** Whether the root is a replay: only then is there a replay's progress to read and show. */
  isReplay?: boolean;
  /** The latest saved version, the agent the run started with, and whether that version has it. */
  replayLatest?: LatestReplayOffer | null;
  /** The run tree's trace in the team's tracing tool (TANDEM_TRACE_URL_TEMPLATE); null: no link. */
  traceUrl?: string | null;
}) {
  const { state, connection } = useLiveThread(rootId);
  const router = useRouter();
  const [forkRequest, setForkRequest] = useState<ForkRequest | null>(null);
  const [comparing, setComparing] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const [addingToSuite, setAddingToSuite] = useState(false);
  const requestFork = useCallback(
    (message: LiveMessage, mode: "fork" | "edit") => setForkRequest({ message, mode }),
    [],
  );
  const [selectedId, setSelectedId] = useState(initialSelectedId);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<InspectorTabId>("transcript");
  // One expansion for the tree and the timeline, so both list the same threads.
  const { expansion, setExpanded } = useTreeExpansion();
  const selected = selectThread(state, selectedId);
  const agent = selected ? agents[selected.agent_id] : undefined;
  const refusedReplay = refusal(usePermission("replay"));
  const refusedSuite = refusal(usePermission("addToSuite"));
  const refusedStop = refusal(usePermission("stop"));
  const mayFork = usePermission("fork").ok;

  async function run<T>(action: () => Promise<T>): Promise<boolean> {
    setError(null);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(describeError(caught));
      return false;
    }
  }

  function composerActions(threadId: string): MessageFormActions {
    return {
      send: (content, attachments) => run(() => api.threads.postMessage(threadId, content, attachments)),
      upload: async (file, path) => {
        try {
          await api.files.upload(threadId, path, file, { createOnly: true });
          return "created";
        } catch (caught) {
          if (caught instanceof ApiError && caught.code === "file_exists") return "taken";
          throw caught;
        }
      },
      remove: (path) => api.files.remove(threadId, path),
    };
  }

  const ended = selected ? selected.status === "terminated" || selected.terminated !== null : true;
  // Stop is offered for any thread at work (a parent blocked on its child included); a root chat has
  // it beside its message box, every other thread in its header.
  const selectedAtWork =
    !ended &&
    (selected?.status === "running" ||
      selected?.status === "queued" ||
      selected?.status === "waiting_approval");
  const chatStop = selected?.parent_id === null && agent?.type === "ai_human";
  // A completed thread nothing can post to can do no more work — a one-off child, or a root whose
  // agent takes no user message (dual_ai): like Stop for a thread not at work, Terminate is not
  // offered; its header shows its status only.
  const finishedOneOff =
    selected?.status === "completed" &&
    (selected.parent_id !== null
      ? !isResumableChild(state, selected)
      : agent !== undefined && agent.type !== "ai_human");
  const handoffs = selected ? selectTelemetry(state, selected.id).handoffs : [];
  const selectedLabel = selected ? (selected.name ?? selected.agent_id) : "";
  const sideLabels = agent?.type === "dual_ai" ? agent.sideLabels : null;
  const status = selected?.status ?? "unknown";
  const detail = selected ? statusDetail(selected) : null;
  const pendingApprovals = selectPendingApprovals(state);
  // Replay re-posts what users posted to the root; with nothing posted (or nothing at all to line
  // up), the actions are offered disabled with the reason instead of failing after the dialog.
  const rootMessages = selectTranscript(state, rootId);
  const rootHasInput = rootMessages.some((message) => message.role === "user");
  const threadLabel = (threadId: string) => {
    const thread = selectThread(state, threadId);
    return thread ? (thread.name ?? thread.agent_id) : "a thread";
  };

  return (
    <div className="flex h-[calc(100vh-2.75rem)] min-h-0">
      <aside
        aria-label="Live tree"
        className="flex w-[30rem] shrink-0 flex-col border-r border-border bg-surface 2xl:w-[36rem]"
      >
        <div className="flex items-center justify-between border-b border-border px-3 py-2 text-sm">
          <span className="font-medium">Threads</span>
          {state.problems.length > 0 ? (
            <span
              className="text-xs text-warning"
              title={state.problems.map((problem) => problem.message).join("\n")}
            >
              {state.problems.length} unreadable event{state.problems.length === 1 ? "" : "s"}
            </span>
          ) : null}
          <span className="text-xs text-muted" aria-live="polite">
            {connection === "open" ? "live" : connection === "connecting" ? "connecting…" : "reconnecting…"}
          </span>
        </div>
        <div className="min-h-0 flex-1">
          <LiveTree
            state={state}
            selectedId={selectedId}
            onSelect={setSelectedId}
            expansion={expansion}
            onExpandedChange={setExpanded}
          />
        </div>
      </aside>
      <section aria-label="Selected thread" className="flex min-w-0 flex-1 flex-col">
        {selected ? (
          <header className="flex flex-wrap items-center gap-2 border-b border-border px-4 py-2">
            <h1 className="font-mono font-medium" data-testid="thread-agent">
              {selected.agent_id}
            </h1>
            {agent?.title && agent.title !== selected.agent_id ? (
              <span className="text-sm">{agent.title}</span>
            ) : null}
            {handoffs.length > 0 ? (
              <span
                className="rounded border border-accent/40 px-1.5 text-xs text-accent"
                title={handoffs.map((handoff) => `Handed off to ${handoff.toAgentId}`).join("\n")}
              >
                after {handoffs.length === 1 ? "a handoff" : `${handoffs.length} handoffs`}
              </span>
            ) : null}
            {selected.name ? <span className="text-muted">“{selected.name}”</span> : null}
            <StatusBadge status={selected.status} />
            {detail ? (
              <span
                data-testid="thread-status-detail"
                className={`min-w-0 text-sm ${detail.tone === "problem" ? "text-danger" : "text-muted"}`}
              >
                {detail.text}
              </span>
            ) : null}
            <div className="ml-auto flex items-center gap-2">
              {traceUrl ? (
                <a
                  href={traceUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="trace-link"
                  title="This run's trace in your tracing tool (opens in a new tab)"
                  className={buttonClasses("secondary", "compact")}
                >
                  Trace ↗
                </a>
              ) : null}
              {selected.parent_id === null ? (
                <>
                  <Gated reason={refusedReplay}>
                    <Button
                      size="compact"
                      disabled={!rootHasInput || refusedReplay !== null}
                      title={
                        rootHasInput || refusedReplay !== null
                          ? undefined
                          : "Nothing to replay yet: no message was posted to this run."
                      }
                      onClick={() => setReplaying(true)}
                    >
                      Replay…
                    </Button>
                  </Gated>
                  <Button
                    size="compact"
                    disabled={rootMessages.length === 0}
                    title={
                      rootMessages.length === 0
                        ? "Nothing to compare yet: this run has no messages."
                        : undefined
                    }
                    onClick={() => setComparing(true)}
                  >
                    Compare with…
                  </Button>
                  <Gated reason={refusedSuite}>
                    <Button
                      size="compact"
                      disabled={!rootHasInput || refusedSuite !== null}
                      title={
                        refusedSuite !== null
                          ? undefined
                          : rootHasInput
                            ? "Turn this run's user turns into a case of an eval suite."
                            : "Nothing to add yet: no message was posted to this run."
                      }
                      onClick={() => setAddingToSuite(true)}
                    >
                      Add to eval suite…
                    </Button>
                  </Gated>
                </>
              ) : null}
              {selectedAtWork && !chatStop ? (
                <Gated reason={refusedStop}>
                  <Button
                    size="compact"
                    disabled={refusedStop !== null}
                    title={
                      refusedStop === null
                        ? "Stop this thread and the subagents it waits on; a new message continues it."
                        : undefined
                    }
                    onClick={() => void run(() => api.threads.stop(selected.id))}
                  >
                    Stop
                  </Button>
                </Gated>
              ) : null}
              {ended || finishedOneOff ? null : (
                <TerminateButton
                  threadLabel={selectedLabel}
                  onTerminate={async () => {
                    await run(() => api.threads.terminate(selected.id));
                  }}
                />
              )}
            </div>
          </header>
        ) : null}
        {forkedFrom && selected?.id === rootId ? (
          <p
            data-testid="forked-from"
            className="mx-4 my-3 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-accent/30 bg-accent/5 px-3 py-2 text-sm"
          >
            <span>
              Forked from{" "}
              <Link
                href={`/threads/${forkedFrom.thread_id}`}
                className="font-medium text-accent underline"
                title={forkedFrom.thread_id}
              >
                {forkedFrom.thread_name ?? forkedFrom.thread_id.slice(0, 8)}
              </Link>
              {forkedFrom.message_number ? ` at message #${forkedFrom.message_number}` : ""}; the original is
              unchanged.
            </span>
            <Link href={diffHref(forkedFrom.thread_id, rootId)} className="font-medium text-accent underline">
              Compare with original
            </Link>
          </p>
        ) : selected?.forked_from && selected.parent_id !== null ? (
          <p data-testid="copied-from" className="mx-4 my-3 text-sm text-muted">
            Copied with the fork from{" "}
            <Link
              href={`/threads/${selected.forked_from.thread_id}`}
              className="font-mono text-accent underline"
              title={selected.forked_from.thread_id}
            >
              {selected.forked_from.thread_id.slice(0, 8)}
            </Link>
            ; the original is unchanged.
          </p>
        ) : null}
        {isReplay ? (
          <ReplayBanner
            rootId={rootId}
            liveDivergences={state.divergences.size}
            loadStatus={api.threads.replayStatus}
            threadLabel={threadLabel}
            onShowThread={setSelectedId}
          />
        ) : null}
        {error ? (
          <p
            role="alert"
            className="mx-4 mt-2 rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger"
          >
            {error}
          </p>
        ) : null}
        <ApprovalsPanel
          approvals={pendingApprovals}
          threadLabel={threadLabel}
          onShowThread={setSelectedId}
          decide={api.approvals.decide}
        />
        <InspectorTabs label="Inspect thread" tabs={INSPECTOR_TABS} active={tab} onChange={setTab}>
          {tab === "transcript" ? (
            <Transcript
              state={state}
              threadId={selectedId}
              sideLabels={sideLabels}
              agents={agents}
              {...(selected?.parent_id === null && mayFork ? { onFork: requestFork } : {})}
            />
          ) : tab === "timeline" ? (
            <ThreadTimeline
              state={state}
              selectedId={selectedId}
              onSelect={setSelectedId}
              expansion={expansion}
            />
          ) : tab === "model-calls" ? (
            <ModelCallsPanel
              loadLogs={api.threads.logs}
              threadId={selectedId}
              status={status}
              sideLabels={sideLabels}
            />
          ) : tab === "tool-calls" ? (
            <ToolCallsPanel loadLogs={api.threads.logs} threadId={selectedId} status={status} />
          ) : tab === "files" ? (
            <FilesPanel loadFiles={api.files.listAll} threadId={selectedId} status={status} />
          ) : (
            <EffectsPanel
              loadEffects={api.effects.list}
              cancelEffect={api.effects.cancel}
              threadId={selectedId}
              status={status}
            />
          )}
        </InspectorTabs>
        {selected && !ended ? (
          <footer className="flex items-end gap-2 border-t border-border px-4 py-2">
            {chatStop ? (
              <>
                <MessageForm
                  key={selected.id}
                  label="Message"
                  submitLabel="Send"
                  actions={composerActions(selected.id)}
                  draftKey={composerDraftKey(selected.id)}
                />
                <Gated reason={refusedStop}>
                  <Button
                    disabled={!selectedAtWork || refusedStop !== null}
                    title={
                      refusedStop === null
                        ? "Stop this thread and the subagents it waits on; a new message continues it."
                        : undefined
                    }
                    onClick={() => void run(() => api.threads.stop(selected.id))}
                  >
                    Stop
                  </Button>
                </Gated>
              </>
            ) : isResumableChild(state, selected) ? (
              <MessageForm
                key={selected.id}
                label="Message this subagent"
                submitLabel="Send to subagent"
                actions={composerActions(selected.id)}
                draftKey={composerDraftKey(selected.id)}
              />
            ) : null}
          </footer>
        ) : null}
      </section>
      <ForkDialog
        request={forkRequest}
        onClose={() => setForkRequest(null)}
        fork={async (input) => {
          const forked = await api.threads.fork(selectedId, input);
          setForkRequest(null);
          router.push(`/threads/${forked.threadId}`);
        }}
      />
      {selected?.parent_id === null ? (
        <ReplayDialog
          open={replaying}
          onClose={() => setReplaying(false)}
          ranWithVersion={selected.version}
          latest={replayLatest}
          replay={async (fromVersion) => {
            const started = await api.threads.replay(selected.id, fromVersion);
            setReplaying(false);
            router.push(`/threads/${started.threadId}`);
          }}
        />
      ) : null}
      {selected?.parent_id === null ? (
        <AddToSuiteDialog
          open={addingToSuite}
          onClose={() => setAddingToSuite(false)}
          projectId={selected.project_id}
          threadId={selected.id}
          agentId={selected.agent_id}
        />
      ) : null}
      {selected ? (
        <CompareDialog
          open={comparing}
          onClose={() => setComparing(false)}
          threadId={selected.id}
          forkedFromId={
            (selected.id === rootId ? forkedFrom?.thread_id : undefined) ??
            selected.forked_from?.thread_id ??
            null
          }
          projectId={selected.project_id}
          listThreads={api.threads.list}
          countMessages={api.threads.messageCount}
        />
      ) : null}
    </div>
  );
}
