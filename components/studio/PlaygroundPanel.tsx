"use client";
// The playground: runs an agent of the project without leaving the studio. Before a run it picks the
// agent (the selected agent node, else the first ai_human one) and an optional first message, and
// saves unsaved changes first (a run always uses a saved version). During a run it shows the root's
// status and stop reason, Stop, New run and a link to the full thread page, the run's tree (LiveTree),
// the tool calls waiting for approval anywhere in it (ApprovalsPanel: approve, edit, deny) and the
// selected thread's transcript with streaming replies and the chat composer; a run of an older
// version (or of an agent the saved version no longer has) says so and offers a new run
// (KeptRunNotices). One event stream per run feeds it (PlaygroundContext), and the canvas overlay
// reads the same state. The panel also holds the inspector: selecting something shows it, the
// playground one click away (the run and the unsent text stay). Run and Start run move the focus
// into it (the composer).
import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { ApiError, createApiClient } from "@/lib/api/client";
import { compileGraph } from "@/lib/graph";
import {
  type LiveState,
  type LiveThread,
  selectPendingApprovals,
  selectRegistry,
  selectTelemetry,
  selectThread,
} from "@/lib/live";
import { keptRunNotice } from "@/lib/studio/kept-run";
import { runTarget } from "@/lib/studio/run-target";
import { soleSelected } from "@/lib/studio/selection";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { ApprovalsPanel } from "../threads/ApprovalsPanel";
import { agentInfoFromDefinitions } from "../threads/agent-info";
import { LiveTree } from "../threads/LiveTree";
import { MessageForm, type MessageFormActions } from "../threads/MessageForm";
import { StatusBadge } from "../threads/StatusBadge";
import { composerDraftKey } from "../threads/session-text";
import { Transcript } from "../threads/Transcript";
import { TREE_ROW_HEIGHT } from "../threads/tree-window";
import { Button } from "../ui/Button";
import { Inspector } from "./Inspector";
import { PreviousRunNotice, StaleRunNotice } from "./KeptRunNotices";
import {
  PLAYGROUND_WIDTH,
  type PlaygroundStore,
  usePlayground,
  usePlaygroundStore,
} from "./PlaygroundContext";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { saveDocument } from "./save-document";
import type { StudioCommandContext } from "./studio-commands";
import { useCompiled } from "./useCompiled";
import { useKeptRun } from "./useKeptRun";

const api = createApiClient();

/** The tree shows at most this many rows before it scrolls, so the chat keeps most of the panel. */
const TREE_VISIBLE_ROWS = 4;

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

function composerActions(threadId: string, onError: (message: string) => void): MessageFormActions {
  return {
    send: async (content, attachments) => {
      try {
        await api.threads.postMessage(threadId, content, attachments);
        return true;
      } catch (error) {
        onError(describeError(error));
        return false;
      }
    },
    upload: async (file, path) => {
      try {
        await api.files.upload(threadId, path, file, { createOnly: true });
        return "created";
      } catch (error) {
        if (error instanceof ApiError && error.code === "file_exists") return "taken";
        throw error;
      }
    },
    remove: (path) => api.files.remove(threadId, path),
  };
}

/** The panel's heading (focused when the panel has no field to offer). */
const PLAYGROUND_TITLE_ID = "studio-playground-title";

/**
 * Moves the focus into the panel once Run (or Start run) asked for it and `ready`: to the text field
 * inside `field` (the composer, the first message), else to the panel's heading.
 */
function useTakeFocus(field: RefObject<HTMLElement | null>, ready: boolean) {
  const store = usePlaygroundStore();
  const pending = usePlayground((state) => state.focusPending && state.view === "playground");
  useEffect(() => {
    if (!pending || !ready) return;
    const element = field.current;
    const target =
      (element?.matches("textarea") ? element : element?.querySelector<HTMLElement>("textarea")) ??
      document.getElementById(PLAYGROUND_TITLE_ID);
    target?.focus();
    store.setState({ focusPending: false });
  }, [pending, ready, field, store]);
}

const clampWidth = (width: number) =>
  Math.round(
    Math.min(
      Math.max(width, PLAYGROUND_WIDTH.min),
      Math.min(PLAYGROUND_WIDTH.max, typeof window === "undefined" ? Infinity : window.innerWidth * 0.6),
    ),
  );

/** The drag handle on the panel's left edge (pointer, or arrow keys when focused). */
function ResizeHandle({ store }: { store: PlaygroundStore }) {
  const width = usePlayground((state) => state.width);
  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    event.preventDefault();
    const startX = event.clientX;
    const startWidth = store.getState().width;
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (moveEvent: globalThis.PointerEvent) =>
      store.setState({ width: clampWidth(startWidth + startX - moveEvent.clientX) });
    const up = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
      target.removeEventListener("pointercancel", up);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
    target.addEventListener("pointercancel", up);
  }
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? 80 : 20;
    const next =
      event.key === "ArrowLeft"
        ? width + step
        : event.key === "ArrowRight"
          ? width - step
          : event.key === "Home"
            ? PLAYGROUND_WIDTH.max
            : event.key === "End"
              ? PLAYGROUND_WIDTH.min
              : null;
    if (next === null) return;
    event.preventDefault();
    store.setState({ width: clampWidth(next) });
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable splitter is a separator with a value, not an <hr>
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the playground"
      aria-valuemin={PLAYGROUND_WIDTH.min}
      aria-valuemax={PLAYGROUND_WIDTH.max}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      className="absolute inset-y-0 -left-1 z-10 w-2 cursor-col-resize touch-none outline-none hover:bg-accent/30 focus-visible:bg-accent/40"
    />
  );
}

/** Before a run: which agent, an optional first message, and what saving means. */
function RunSetup({ projectId }: { projectId: string }) {
  const store = usePlaygroundStore();
  const studio = useStudioStore();
  const compiled = useCompiled();
  const selection = useStudio((state) => state.selection);
  const dirty = useStudio((state) => state.savedDocument !== state.history.present);
  const baseVersion = useStudio((state) => state.baseVersion);
  const picked = usePlayground((state) => state.agent);
  const message = usePlayground((state) => state.setupMessage);
  const setMessage = (text: string) => store.setState({ setupMessage: text });
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const agentFieldId = useId();
  const messageFieldId = useId();
  const messageField = useRef<HTMLTextAreaElement>(null);
  useTakeFocus(messageField, true);
  // Starting is a runner's; with unsaved changes Start saves first, which is an editor's (the role
  // table): a runner with changes is told to undo them (the saved version is what runs).
  const refusedRun = refusal(usePermission("run", projectId));
  const refusedSave = refusal(usePermission("save", projectId));
  const refused =
    refusedRun ??
    (dirty && refusedSave ? `${refusedSave} Undo your changes to run the saved version.` : null);

  const selected = soleSelected(selection);
  const target = runTarget(compiled.graph, compiled, selected?.kind === "node" ? selected.id : null);
  const runnable = compiled.bundle.agents
    .filter((agent) => (agent.type ?? "ai_human") === "ai_human")
    .map((agent) => agent.name);

  if (!target.ok) {
    const errors = compiled.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
    return (
      <div className="flex flex-col gap-2 p-4 text-sm" data-testid="playground-empty">
        <PreviousRunNotice />
        <p className="font-medium">Nothing to run yet</p>
        <p className="text-muted">
          {compiled.valid
            ? "Add an ai_human agent to run: the playground chats with it, and its subagents run in the tree below."
            : `Fix the ${errors} problem${errors === 1 ? "" : "s"} listed under Problems before running.`}
        </p>
      </div>
    );
  }
  const agent = picked && runnable.includes(picked) ? picked : target.agent;

  async function start() {
    if (refused) return;
    setStarting(true);
    setError(null);
    try {
      const { savedDocument, history } = studio.getState();
      if (savedDocument !== history.present && !(await saveDocument(studio, projectId))) {
        setError(
          `Not started: your changes could not be saved (${studio.getState().status?.text ?? "unknown error"}).`,
        );
        return;
      }
      studio.getState().setStatus({ tone: "info", text: `Starting ${agent} in the playground…` });
      const created = await api.threads.create({
        projectId,
        agentId: agent,
        message: message.trim() || undefined,
      });
      store.setState({
        run: { rootId: created.threadId, agentId: agent },
        previousRun: null,
        live: null,
        connection: "connecting",
        selectedId: created.threadId,
        setupMessage: "",
        focusPending: true,
      });
      studio.getState().setStatus({ tone: "info", text: `Started ${agent} in the playground` });
    } catch (caught) {
      setError(`Not started: ${describeError(caught)}`);
    } finally {
      setStarting(false);
    }
  }

  return (
    <form
      aria-label="Start a run"
      className="flex flex-col gap-3 p-4 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <PreviousRunNotice />
      <div className="flex flex-col gap-1">
        <label htmlFor={agentFieldId} className="font-medium">
          Agent
        </label>
        <select
          id={agentFieldId}
          value={agent}
          onChange={(event) => store.setState({ agent: event.target.value })}
          className="h-8 rounded-md border border-border bg-surface px-2"
        >
          {runnable.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <span className="text-xs text-muted">
          Defaults to the selected agent node. dual_ai agents run as subagents of these.
        </span>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={messageFieldId} className="font-medium">
          First message <span className="font-normal text-muted">(optional)</span>
        </label>
        <textarea
          ref={messageField}
          data-region-start
          id={messageFieldId}
          rows={3}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
          placeholder="Say something to start with, or leave it empty and chat below"
          className="resize-y rounded-md border border-border bg-surface px-2.5 py-1.5 outline-none focus:border-accent"
        />
      </div>
      <p
        className="rounded-md border border-border bg-surface-muted px-3 py-2 text-xs"
        data-testid="playground-version"
      >
        {dirty
          ? "You have unsaved changes: Start saves them as a new version first, and the run uses that saved version."
          : `Runs the saved version${baseVersion ? ` v${baseVersion}` : ""}. Later edits apply to the next run once saved.`}
      </p>
      {error ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger">
          {error}
        </p>
      ) : null}
      <Gated reason={refused}>
        <Button type="submit" tone="primary" disabled={starting || refused !== null} className="self-start">
          {starting
            ? dirty
              ? "Saving and starting…"
              : "Starting…"
            : dirty
              ? "Save and start run"
              : "Start run"}
        </Button>
      </Gated>
    </form>
  );
}

/** Why a thread is where it is: waiting for a message, or the reason it stopped, or its failure. */
function stopText(thread: LiveThread, telemetryReason: string | null): string | null {
  const reason = thread.stop_reason ?? telemetryReason;
  if (thread.failure) return `Failed: ${thread.failure}`;
  if (thread.status === "idle")
    return thread.parent_id ? "Idle, waiting for a message" : "Waiting for your message";
  if (reason && ["completed", "stopped", "terminated"].includes(thread.status))
    return `Stop reason: ${reason}`;
  return null;
}

/** During a run: status, controls, the tree and the selected thread's chat. */
function RunView({ rootId }: { rootId: string }) {
  const store = usePlaygroundStore();
  const live = usePlayground((state) => state.live);
  const connection = usePlayground((state) => state.connection);
  const selectedId = usePlayground((state) => state.selectedId) ?? rootId;
  const savedDocument = useStudio((state) => state.savedDocument);
  const agents = useMemo(() => agentInfoFromDefinitions(compileGraph(savedDocument).bundle), [savedDocument]);
  const [error, setError] = useState<string | null>(null);
  const { run, standing, currentVersion } = useKeptRun();
  const composer = useRef<HTMLDivElement>(null);
  // Ready once the run's root is drawn (the composer, if it has one, is there then).
  useTakeFocus(composer, live !== null && selectThread(live, rootId) !== undefined);

  const root = live ? selectThread(live, rootId) : undefined;
  const selected = live ? (selectThread(live, selectedId) ?? root) : undefined;
  const select = (threadId: string) => store.setState({ selectedId: threadId });

  if (!live || !root || !selected) {
    return (
      <div
        className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-sm text-muted"
        aria-busy="true"
      >
        <span aria-hidden className="size-3 animate-pulse rounded-full bg-accent" />
        <p role="status">
          {connection === "reconnecting" ? "Reconnecting to the run…" : "Connecting to the run…"}
        </p>
      </div>
    );
  }

  const rootActive =
    root.status === "running" || root.status === "queued" || root.status === "waiting_approval";
  // No composer onto an agent the saved version no longer has: the notice says so and offers a new run.
  const orphaned = standing?.kind === "orphaned";
  const notice = run && standing ? keptRunNotice(run, standing) : null;
  // ("Waiting for your message" would contradict the notice of a run nobody can message.)
  const rootNote =
    orphaned && root.status === "idle"
      ? null
      : stopText(root, selectTelemetry(live, root.id).stop?.reason ?? null);
  const selectedNote =
    selected.id === root.id
      ? null
      : stopText(selected, selectTelemetry(live, selected.id).stop?.reason ?? null);
  const selectedAgent = agents[selected.agent_id];
  const ended = selected.status === "terminated" || selected.terminated !== null;
  const rows = live.threads.size;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-col gap-1.5 border-b border-border px-3 py-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm font-medium" data-testid="playground-agent">
            {root.agent_id}
          </span>
          <StatusBadge status={root.status} />
          <span className="text-xs text-muted" title="The saved version this run uses">
            v{root.version}
          </span>
          <span className="ml-auto text-xs text-muted" aria-live="polite">
            {connection === "open" ? "live" : connection === "connecting" ? "connecting…" : "reconnecting…"}
          </span>
        </div>
        {rootNote ? (
          <p
            className={`text-xs ${root.failure ? "text-danger" : "text-muted"}`}
            data-testid="playground-stop-reason"
          >
            {rootNote}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-1.5">
          <Button
            size="compact"
            disabled={!rootActive}
            title={rootActive ? "Stop after the current step" : "Nothing is running"}
            onClick={async () => {
              setError(null);
              try {
                await api.threads.stop(root.id);
              } catch (caught) {
                setError(describeError(caught));
              }
            }}
          >
            Stop
          </Button>
          <Button
            size="compact"
            title={
              rootActive ? "Start another run; this one keeps going (find it on the project page)" : undefined
            }
            onClick={() => store.setState({ run: null, live: null, selectedId: null })}
          >
            New run
          </Button>
          <a
            href={`/threads/${encodeURIComponent(root.id)}`}
            target="_blank"
            rel="noopener"
            className="ml-auto text-xs text-accent underline-offset-2 hover:underline"
          >
            Open full thread page<span aria-hidden> ↗</span>
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      </div>
      <section aria-label="Run tree" className="flex shrink-0 flex-col border-b border-border">
        <h3 className="px-3 pt-1.5 text-xs font-semibold uppercase tracking-wide text-muted">
          Threads <span className="font-normal normal-case">({rows})</span>
        </h3>
        <div style={{ height: Math.min(rows, TREE_VISIBLE_ROWS) * TREE_ROW_HEIGHT + 10 }}>
          <LiveTree state={live} selectedId={selected.id} onSelect={select} />
        </div>
      </section>
      {notice && run ? <StaleRunNotice notice={notice} run={run} currentVersion={currentVersion} /> : null}
      {selected.id !== root.id ? (
        <div className="flex items-center gap-2 border-b border-border px-3 py-1.5 text-xs">
          <span className="text-muted">Showing</span>
          <span className="font-mono">{selected.name ?? selected.agent_id}</span>
          <StatusBadge status={selected.status} />
          {selectedNote ? <span className="truncate text-muted">{selectedNote}</span> : null}
          <button
            type="button"
            className="ml-auto text-accent underline-offset-2 hover:underline"
            onClick={() => select(root.id)}
          >
            Back to {root.agent_id}
          </button>
        </div>
      ) : null}
      <ApprovalsPanel
        approvals={selectPendingApprovals(live)}
        threadLabel={(threadId) => {
          const thread = selectThread(live, threadId);
          return thread ? (thread.name ?? thread.agent_id) : threadId.slice(0, 6);
        }}
        onShowThread={select}
        decide={api.approvals.decide}
        testId="playground-approvals"
        className="max-h-[50%] px-3"
      />
      {error ? (
        <p
          role="alert"
          className="mx-3 mt-2 rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger"
        >
          {error}
        </p>
      ) : null}
      <Transcript
        state={live}
        threadId={selected.id}
        sideLabels={selectedAgent?.type === "dual_ai" ? selectedAgent.sideLabels : null}
        agents={agents}
      />
      {orphaned ? null : !ended && selected.parent_id === null && selectedAgent?.type !== "dual_ai" ? (
        <div ref={composer} data-region-start className="border-t border-border px-3 py-2">
          <MessageForm
            key={selected.id}
            label="Message"
            submitLabel="Send"
            placeholder="Message (Enter sends)"
            actions={composerActions(selected.id, setError)}
            draftKey={composerDraftKey(selected.id)}
          />
        </div>
      ) : !ended && isResumableChild(live, selected) ? (
        <div ref={composer} data-region-start className="border-t border-border px-3 py-2">
          <MessageForm
            key={selected.id}
            label="Message this subagent"
            submitLabel="Send to subagent"
            placeholder="Message this subagent (Enter sends)"
            actions={composerActions(selected.id, setError)}
            draftKey={composerDraftKey(selected.id)}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The header's way back and forth between the playground and the inspector. */
function ShowInspectorButton() {
  const store = usePlaygroundStore();
  return (
    <Button
      size="compact"
      className="ml-auto"
      title="Show the inspector of the selection (the run keeps going here)"
      onClick={() => store.setState({ view: "inspector" })}
    >
      Inspector
    </Button>
  );
}

function BackToPlaygroundButton(): ReactNode {
  const store = usePlaygroundStore();
  const running = usePlayground((state) =>
    state.live ? state.live.statusCounts.running + state.live.statusCounts.queued > 0 : false,
  );
  return (
    <Button
      size="compact"
      className="ml-auto"
      onClick={() => store.setState({ view: "playground", focusPending: true })}
    >
      {running ? <span aria-hidden className="size-2 animate-pulse rounded-full bg-accent" /> : null}
      Back to the playground
    </Button>
  );
}

/**
 * The right-hand panel while the playground is open: the playground, or (when something is selected,
 * or its Inspector button is pressed) the inspector in its place; the playground stays mounted
 * (hidden), so the run, the transcript's scroll and the unsent text are there when it comes back.
 */
export function PlaygroundPanel({
  projectId,
  context,
}: {
  projectId: string;
  context: StudioCommandContext;
}) {
  const store = usePlaygroundStore();
  const width = usePlayground((state) => state.width);
  const view = usePlayground((state) => state.view);
  const rootId = usePlayground((state) => state.run?.rootId ?? null);
  return (
    <div
      data-studio-region="side-panel"
      style={{ width }}
      className="relative flex shrink-0 flex-col border-l border-border bg-surface"
    >
      <ResizeHandle store={store} />
      {view === "inspector" ? <Inspector context={context} fill action={<BackToPlaygroundButton />} /> : null}
      <aside
        id="studio-playground"
        aria-label="Playground"
        hidden={view === "inspector"}
        className={view === "inspector" ? "hidden" : "flex min-h-0 flex-1 flex-col"}
      >
        <div className="flex items-center gap-2 border-b border-border px-3 py-2">
          <h2 id={PLAYGROUND_TITLE_ID} tabIndex={-1} className="text-sm font-semibold outline-none">
            Playground
          </h2>
          <ShowInspectorButton />
          <Button
            size="compact"
            aria-label="Close the playground"
            title="Close the playground (the run keeps going; Run opens it again)"
            onClick={() => store.setState({ open: false })}
          >
            <span aria-hidden>×</span>
          </Button>
        </div>
        {rootId ? <RunView key={rootId} rootId={rootId} /> : <RunSetup projectId={projectId} />}
      </aside>
    </div>
  );
}
