// The studio's state outside React: the canvas document with its undo history, the selection, the
// version the document was loaded or saved as, and one status line. Components read it with
// useStore; tests drive it directly.
import { createStore } from "zustand/vanilla";
import type { Graph } from "@/lib/graph";
import { type History, record, redo, replacePresent, startHistory, undo } from "./history";
import {
  EMPTY_SELECTION,
  type SelectedItem,
  type StudioSelection,
  selectionOf,
  withoutMissingNodes,
} from "./selection";

export type { StudioSelection } from "./selection";
export interface StudioStatus {
  tone: "info" | "error";
  text: string;
}

/** The studio's dialogs; at most one is open. */
export type StudioDialog = "palette" | "shortcuts" | "models" | "history";

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
  load(graph: Graph, version: number): void;
  edit(change: (graph: Graph) => Graph, coalesceKey?: string): void;
  dragTo(change: (graph: Graph) => Graph, finished: boolean): void;
  undo(): void;
  redo(): void;
  /** Selects exactly `item` (or nothing). */
  select(item: SelectedItem | null): void;
  setSelection(selection: StudioSelection): void;
  saved(version: number, document: Graph): void;
  setStatus(status: StudioStatus | null): void;
  openDialog(dialog: StudioDialog | null): void;
}

export type StudioStore = ReturnType<typeof createStudioStore>;

export function createStudioStore(initial: Graph, version: number | null = null) {
  return createStore<StudioState>()((set, get) => {
    /** Moves through history; selected nodes that no longer exist stop being selected. */
    const travel = (history: History<Graph>) => {
      const present = new Set(history.present.nodes.map((node) => node.id));
      set({ history, dragOrigin: null, selection: withoutMissingNodes(get().selection, present) });
    };
    return {
      history: startHistory(initial),
      selection: EMPTY_SELECTION,
      baseVersion: version,
      status: null,
      dialog: null,
      dragOrigin: null,
      savedDocument: initial,
      load: (graph, loadedVersion) =>
        set({
          history: startHistory(graph),
          baseVersion: loadedVersion,
          selection: EMPTY_SELECTION,
          dragOrigin: null,
          savedDocument: graph,
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
      saved: (savedVersion, document) => set({ baseVersion: savedVersion, savedDocument: document }),
      openDialog: (dialog) => set({ dialog }),
      setStatus: (status) => {
        const current = get().status;
        if (current?.text === status?.text && current?.tone === status?.tone) return;
        set({ status });
      },
    };
  });
}
