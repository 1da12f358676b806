"use client";
// The studio's playground state, outside React like the studio store: whether the panel is open and
// how wide, whether it shows the playground or the inspector, the agent picked to run, the run it
// follows (with the version it uses) and that run's live state. One event stream
// per run (useLiveThread on the root) feeds both the panel and the canvas overlay; components read
// just the slice they draw, so streamed text re-renders the transcript, not the canvas.
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import type { Graph, GraphEdge } from "@/lib/graph";
import { type LiveState, selectThread } from "@/lib/live";
import { NO_RUN_OVERLAY, type RunOverlay, runOverlay, sameRunOverlay } from "@/lib/studio/run-overlay";
import { type ConnectionState, useLiveThread } from "../threads/useLiveThread";
import { playgroundSessionOf, readPlaygroundSession, writePlaygroundSession } from "./playground-session";

export interface PlaygroundRun {
  rootId: string;
  agentId: string;
  /** The saved version the run uses, once its stream has said (lib/studio/kept-run.ts). */
  version?: number;
}

/** What the right-hand panel shows while the playground is open: the run, or the selection's inspector. */
export type PlaygroundView = "playground" | "inspector";

export const PLAYGROUND_WIDTH = { min: 320, default: 420, max: 760 } as const;

export interface PlaygroundState {
  open: boolean;
  /** While open: the playground, or the inspector of the selection (selecting something shows it). */
  view: PlaygroundView;
  /** Set when Run (or Start run) asks for the focus: the panel moves it in once its field is there. */
  focusPending: boolean;
  /** A run Run put aside because it was of an older version or agent: the form says so and links it. */
  previousRun: PlaygroundRun | null;
  /** Panel width in px (the separator drags it between PLAYGROUND_WIDTH.min and .max). */
  width: number;
  /** The agent picked in the panel; null follows the canvas selection (else the first ai_human agent). */
  agent: string | null;
  run: PlaygroundRun | null;
  /** The followed run's live state: null until its stream delivers the first frames. */
  live: LiveState | null;
  connection: ConnectionState;
  /** The thread whose transcript the panel shows (the root by default). */
  selectedId: string | null;
  /** The first message typed before a run starts (kept across a reload, like the rest above). */
  setupMessage: string;
}

export type PlaygroundStore = ReturnType<typeof createPlaygroundStore>;

export function createPlaygroundStore() {
  return createStore<PlaygroundState>()(() => ({
    open: false,
    view: "playground",
    focusPending: false,
    previousRun: null,
    width: PLAYGROUND_WIDTH.default,
    agent: null,
    run: null,
    live: null,
    connection: "connecting",
    selectedId: null,
    setupMessage: "",
  }));
}

const PlaygroundContext = createContext<PlaygroundStore | null>(null);

export function usePlaygroundStore(): PlaygroundStore {
  const store = useContext(PlaygroundContext);
  if (!store) throw new Error("usePlayground must be used inside <PlaygroundProvider>.");
  return store;
}

export function usePlayground<Slice>(selector: (state: PlaygroundState) => Slice): Slice {
  return useStore(usePlaygroundStore(), selector);
}

/** Follows one run: its stream's state goes into the playground store, and the version it uses. */
function RunStream({ store, rootId }: { store: PlaygroundStore; rootId: string }) {
  const { state, connection } = useLiveThread(rootId);
  useEffect(() => {
    const run = store.getState().run;
    if (run?.rootId !== rootId) return;
    const version = state ? selectThread(state, rootId)?.version : undefined;
    store.setState({
      live: state,
      connection,
      ...(typeof version === "number" && version !== run.version ? { run: { ...run, version } } : {}),
    });
  }, [store, rootId, state, connection]);
  return null;
}

/**
 * Keeps the playground across a reload (playground-session.ts): restored once mounted (the server
 * rendered it closed), then written on every change. A restored run whose thread is gone is dropped.
 */
function useKeptPlayground(store: PlaygroundStore, projectId: string): void {
  useEffect(() => {
    const kept = readPlaygroundSession(projectId);
    if (kept) store.setState({ ...kept, live: null, connection: "connecting" });
    const rootId = kept?.run?.rootId;
    if (rootId) {
      void fetch(`/api/threads/${encodeURIComponent(rootId)}`)
        .then((response) => {
          if (response.status === 404 && store.getState().run?.rootId === rootId)
            store.setState({ run: null, live: null, selectedId: null });
        })
        // Unreachable now: keep the run; its stream says what it can.
        .catch(() => undefined);
    }
    let last = JSON.stringify(playgroundSessionOf(store.getState()));
    return store.subscribe((state) => {
      const session = playgroundSessionOf(state);
      const text = JSON.stringify(session);
      if (text === last) return;
      last = text;
      writePlaygroundSession(projectId, session);
    });
  }, [store, projectId]);
}

export function PlaygroundProvider({ projectId, children }: { projectId: string; children: ReactNode }) {
  const [store] = useState(createPlaygroundStore);
  useKeptPlayground(store, projectId);
  const rootId = useStore(store, (state) => state.run?.rootId ?? null);
  return (
    <PlaygroundContext.Provider value={store}>
      {children}
      {rootId ? <RunStream key={rootId} store={store} rootId={rootId} /> : null}
    </PlaygroundContext.Provider>
  );
}

/**
 * The overlay the canvas draws for the followed run: while the panel is open, or while any thread
 * of the run is still at work after it was closed. The same object comes back while nothing shown
 * changes, so the canvas re-renders only when a badge or an edge does.
 */
export function usePlaygroundOverlay(graph: Graph, edges: readonly GraphEdge[]): RunOverlay {
  const threads = usePlayground((state) => state.live?.threads ?? null);
  const telemetry = usePlayground((state) => state.live?.telemetry ?? null);
  const shown = usePlayground(
    (state) =>
      state.run !== null &&
      (state.open ||
        (state.live ? state.live.statusCounts.queued + state.live.statusCounts.running > 0 : false)),
  );
  const previous = useRef<RunOverlay>(NO_RUN_OVERLAY);
  return useMemo(() => {
    const next =
      shown && threads && telemetry ? runOverlay(graph, edges, { threads, telemetry }) : NO_RUN_OVERLAY;
    if (sameRunOverlay(previous.current, next)) return previous.current;
    previous.current = next;
    return next;
  }, [graph, edges, shown, threads, telemetry]);
}
