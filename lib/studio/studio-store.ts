// The studio's state outside React: the canvas document with its undo history, the selection, the
// version the document was loaded or saved as, and one status line. Components read it with
// useStore; tests drive it directly.

import { createStore } from "zustand/vanilla";
import type { McpServerListing } from "@/lib/contracts/mcp";
import type { Graph } from "@/lib/graph";
import { type History, record, redo, replacePresent, startHistory, undo } from "./history";
import type { ProviderAvailability } from "./provider-diagnostics";
import {
  EMPTY_SELECTION,
  type SelectedItem,
  type StudioSelection,
  selectionOf,
  withoutMissingNodes,
} from "./selection";
import { type UnappliedField, withoutUnappliedField, withUnappliedField } from "./unapplied-fields";

export type { StudioSelection } from "./selection";
export interface StudioStatus {
  tone: "info" | "error";
  text: string;
  /** Says what Undo would do now ("Undo brings them back"): no longer true once the history moves. */
  aboutUndo?: boolean;
}

/** The studio's dialogs; at most one is open. */
export type StudioDialog =
  | "palette"
  | "shortcuts"
  | "models"
  | "history"
  /** "Save with N problems?" before saving a canvas that has errors. */
  | "save-problems"
  /** A save lost a race (or a restored draft was edited from an older version): merge or overwrite. */
  | "save-conflict"
  /** The toolbar's Templates menu, opened by its button or by the empty canvas's "Start from a template". */
  | "templates";

/** The notice shown after a draft of unsaved changes was restored on opening the studio. */
export interface DraftNotice {
  /** When the draft was written (ms since the epoch). */
  savedAt: number;
  /** The version the draft was edited from, when the server has moved on since; else null. */
  staleBase: number | null;
  /** The server's version when the draft was restored. */
  serverVersion: number | null;
}

/** Where the browser-side draft of unsaved changes stands (shown in the status line). */
export type DraftState = "none" | "pending" | "kept" | "failed";

/** A save refused because the server holds a newer version than the one the document was edited from. */
export interface SaveConflict {
  /** The version the local document was edited from. */
  baseVersion: number | null;
  /** The server's current version, when the refusal said it. */
  currentVersion: number | null;
}

export interface StudioState {
  history: History<Graph>;
  selection: StudioSelection;
  baseVersion: number | null;
  status: StudioStatus | null;
  dialog: StudioDialog | null;
  /** The document before the running drag began, so one drag is one undo step. */
  dragOrigin: Graph | null;
  /** The document as last loaded or saved: the present differs from it when there are unsaved changes. */
  savedDocument: Graph;
  /**
   * The version a restored draft was edited from, when older than `baseVersion`: saves send it as
   * the base, so the server refuses them and the conflict dialog decides. Cleared by a save or load.
   */
  staleBase: number | null;
  draftNotice: DraftNotice | null;
  draftState: DraftState;
  conflict: SaveConflict | null;
  /**
   * The code pane's text cannot be read (the canvas keeps its last good state): its first error, for
   * the Problems panel. Null while the code reads (or the pane is closed).
   */
  codeProblem: CodeProblem | null;
  /** What this server says of its model providers (GET /api/providers); null until it answered. */
  providers: ProviderAvailability[] | null;
  /** The MCP servers this server configures (GET /api/mcp/tools); null until it answered. */
  mcpServers: McpServerListing[] | null;
  /**
   * Inspector text that does not parse yet, so it is not in the document (lib/studio/unapplied-fields):
   * listed in Problems, and shown again in its field when its node is inspected again.
   */
  unappliedFields: readonly UnappliedField[];
  load(graph: Graph, version: number): void;
  /**
   * Puts a restored draft on the canvas as unsaved changes over the saved document (one undo step
   * back to it) and shows the notice.
   */
  restoreDraft(document: Graph, staleBase: number | null, savedAt: number): void;
  /** Reverts to the saved document as one undo step (Undo brings the changes back); hides the notice. */
  discardChanges(): void;
  dismissDraftNotice(): void;
  setDraftState(state: DraftState): void;
  /** Shows the conflict dialog for a refused save. */
  conflicted(conflict: SaveConflict): void;
  /**
   * Puts a merge on the canvas as one undo step, now based on `theirs` (the server's version
   * `version`): the next save goes on top of it.
   */
  merged(document: Graph, theirs: Graph, version: number): void;
  edit(change: (graph: Graph) => Graph, coalesceKey?: string): void;
  dragTo(change: (graph: Graph) => Graph, finished: boolean): void;
  undo(): void;
  redo(): void;
  /** Selects exactly `item` (or nothing). */
  select(item: SelectedItem | null): void;
  setSelection(selection: StudioSelection): void;
  saved(version: number, document: Graph): void;
  setStatus(status: StudioStatus | null): void;
  setCodeProblem(problem: CodeProblem | null): void;
  setUnappliedField(field: UnappliedField): void;
  clearUnappliedField(key: string): void;
  setProviders(providers: ProviderAvailability[]): void;
  setMcpServers(servers: McpServerListing[]): void;
  openDialog(dialog: StudioDialog | null): void;
}

/** Where the code pane's text first fails to read: its line and "line:column error: message". */
export interface CodeProblem {
  line: number;
  message: string;
}

export type StudioStore = ReturnType<typeof createStudioStore>;

export function createStudioStore(initial: Graph, version: number | null = null) {
  return createStore<StudioState>()((set, get) => {
    /** Moves through history; selected nodes that no longer exist stop being selected. */
    const travel = (history: History<Graph>) => {
      const present = new Set(history.present.nodes.map((node) => node.id));
      set({
        history,
        dragOrigin: null,
        selection: withoutMissingNodes(get().selection, present),
        // A message about what Undo would do is stale once undo or redo moved the history.
        ...(get().status?.aboutUndo ? { status: null } : {}),
      });
    };
    return {
      history: startHistory(initial),
      selection: EMPTY_SELECTION,
      baseVersion: version,
      status: null,
      dialog: null,
      dragOrigin: null,
      savedDocument: initial,
      staleBase: null,
      draftNotice: null,
      draftState: "none",
      conflict: null,
      codeProblem: null,
      providers: null,
      mcpServers: null,
      unappliedFields: [],
      load: (graph, loadedVersion) =>
        set({
          history: startHistory(graph),
          baseVersion: loadedVersion,
          selection: EMPTY_SELECTION,
          dragOrigin: null,
          savedDocument: graph,
          staleBase: null,
          draftNotice: null,
          conflict: null,
          // Another document: drafts typed over the old one's values no longer apply to anything.
          unappliedFields: [],
        }),
      restoreDraft: (document, staleBase, savedAt) => {
        const { savedDocument, baseVersion } = get();
        set({
          history: record(startHistory(savedDocument), document),
          selection: EMPTY_SELECTION,
          dragOrigin: null,
          staleBase,
          draftNotice: { savedAt, staleBase, serverVersion: baseVersion },
        });
      },
      discardChanges: () => {
        const { history, savedDocument } = get();
        travel(record(history, savedDocument));
        // Back on the saved version: a stale base no longer applies.
        set({ draftNotice: null, staleBase: null });
      },
      dismissDraftNotice: () => set({ draftNotice: null }),
      setDraftState: (draftState) => {
        if (draftState !== get().draftState) set({ draftState });
      },
      conflicted: (conflict) => set({ conflict, dialog: "save-conflict" }),
      merged: (document, theirs, mergedVersion) =>
        set({
          history: record(get().history, document),
          savedDocument: theirs,
          baseVersion: mergedVersion,
          staleBase: null,
          draftNotice: null,
          dragOrigin: null,
        }),
      edit: (change, coalesceKey) => {
        const { history } = get();
        const next = change(history.present);
        if (next !== history.present) set({ history: record(history, next, coalesceKey) });
      },
      dragTo: (change, finished) => {
        const { history, dragOrigin } = get();
        const origin = dragOrigin ?? history.present;
        const moved = replacePresent(history, change(history.present));
        if (!finished) {
          set({ history: moved, dragOrigin: origin });
          return;
        }
        const recorded = record({ ...moved, present: origin, coalesceKey: undefined }, moved.present);
        set({ history: recorded, dragOrigin: null });
      },
      undo: () => travel(undo(get().history)),
      redo: () => travel(redo(get().history)),
      select: (item) => set({ selection: selectionOf(item) }),
      setSelection: (selection) => {
        if (selection !== get().selection) set({ selection });
      },
      saved: (savedVersion, document) =>
        set({
          baseVersion: savedVersion,
          savedDocument: document,
          staleBase: null,
          conflict: null,
          draftNotice: null,
        }),
      openDialog: (dialog) => set({ dialog }),
      setProviders: (providers) => set({ providers }),
      setMcpServers: (mcpServers) => set({ mcpServers }),
      setCodeProblem: (problem) => {
        const current = get().codeProblem;
        if (current?.line === problem?.line && current?.message === problem?.message) return;
        set({ codeProblem: problem });
      },
      setUnappliedField: (field) => {
        const unappliedFields = withUnappliedField(get().unappliedFields, field);
        if (unappliedFields !== get().unappliedFields) set({ unappliedFields });
      },
      clearUnappliedField: (key) => {
        const unappliedFields = withoutUnappliedField(get().unappliedFields, key);
        if (unappliedFields !== get().unappliedFields) set({ unappliedFields });
      },
      setStatus: (status) => {
        const current = get().status;
        if (current?.text === status?.text && current?.tone === status?.tone) return;
        set({ status });
      },
    };
  });
}
