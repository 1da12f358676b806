// Every studio command as data — id, label, group, shortcuts, run — shared by the keyboard handler,
// the command palette, the help dialog and the toolbar's aria-keyshortcuts.

import type { StudioNodeKind } from "@/lib/studio/document-edits";
import { autoLayout } from "@/lib/studio/document-layout";
import type { StudioStore } from "@/lib/studio/studio-store";
import { saveDocument } from "./save-document";
import {
  addNodeOfKind,
  copySelection,
  deleteSelected,
  duplicateSelection,
  pasteClipboard,
  type StudioViewport,
  selectAll,
} from "./studio-actions";

export interface StudioCommandContext {
  store: StudioStore;
  viewport: StudioViewport;
  projectId: string;
}

export type StudioCommandGroup = "Add" | "Edit" | "Canvas" | "Project" | "Help";

export interface StudioCommand {
  id: string;
  label: string;
  group: StudioCommandGroup;
  /** Shortcut strings as lib/studio/shortcuts.ts reads them; the first one is shown. */
  keys?: readonly string[];
  /** Also runs while the focus is in a text field (otherwise the field keeps the keys). */
  whileTyping?: boolean;
  /** Gives way when the user has selected text on the page, so Ctrl+C still copies text. */
  yieldsToTextSelection?: boolean;
  run(context: StudioCommandContext): void | Promise<void>;
}

const ADDABLE: { kind: StudioNodeKind; label: string }[] = [
  { kind: "agent", label: "Add agent" },
  { kind: "prompt", label: "Add prompt" },
  { kind: "tool", label: "Add tool" },
  { kind: "model", label: "Add model" },
  { kind: "note", label: "Add note" },
];

function download(href: string) {
  const link = document.createElement("a");
  link.href = href;
  link.download = "";
  link.click();
}

const exportUrl = (projectId: string, format: "ts" | "zip" | "json") =>
  `/api/projects/${encodeURIComponent(projectId)}/export?format=${format}`;

export const STUDIO_COMMANDS: readonly StudioCommand[] = [
  {
    id: "palette",
    label: "Command palette",
    group: "Help",
    keys: ["Mod+K"],
    whileTyping: true,
    run: ({ store }) => store.getState().openDialog("palette"),
  },
  {
    id: "shortcuts",
    label: "Keyboard shortcuts",
    group: "Help",
    keys: ["?"],
    run: ({ store }) => store.getState().openDialog("shortcuts"),
  },
  {
    id: "models",
    label: "Models and providers",
    group: "Project",
    run: ({ store }) => store.getState().openDialog("models"),
  },
  {
    id: "history",
    label: "Version history",
    group: "Project",
    run: ({ store }) => store.getState().openDialog("history"),
  },
  ...ADDABLE.map(
    ({ kind, label }): StudioCommand => ({
      id: `add-${kind}`,
      label,
      group: "Add",
      run: ({ store }) => addNodeOfKind(store, kind),
    }),
  ),
  { id: "undo", label: "Undo", group: "Edit", keys: ["Mod+Z"], run: ({ store }) => store.getState().undo() },
  {
    id: "redo",
    label: "Redo",
    group: "Edit",
    keys: ["Mod+Shift+Z", "Mod+Y"],
    run: ({ store }) => store.getState().redo(),
  },
  {
    id: "copy",
    label: "Copy",
    group: "Edit",
    keys: ["Mod+C"],
    yieldsToTextSelection: true,
    run: ({ store }) => copySelection(store),
  },
  { id: "paste", label: "Paste", group: "Edit", keys: ["Mod+V"], run: ({ store }) => pasteClipboard(store) },
  {
    id: "duplicate",
    label: "Duplicate",
    group: "Edit",
    keys: ["Mod+D"],
    run: ({ store }) => duplicateSelection(store),
  },
  {
    id: "delete",
    label: "Delete selection",
    group: "Edit",
    keys: ["Delete", "Backspace"],
    run: ({ store }) => deleteSelected(store),
  },
  {
    id: "select-all",
    label: "Select all",
    group: "Edit",
    keys: ["Mod+A"],
    run: ({ store }) => selectAll(store),
  },
  {
    id: "auto-layout",
    label: "Auto layout",
    group: "Canvas",
    run: ({ store }) => {
      store.getState().edit(autoLayout);
      store.getState().setStatus({ tone: "info", text: "Laid out the whole canvas" });
    },
  },
  {
    id: "fit-view",
    label: "Zoom to fit",
    group: "Canvas",
    run: ({ viewport }) => void viewport.fitView({ duration: 200, maxZoom: 1 }),
  },
  {
    id: "save",
    label: "Save",
    group: "Project",
    keys: ["Mod+S"],
    whileTyping: true,
    run: ({ store, projectId }) => void saveDocument(store, projectId),
  },
  {
    id: "export-ts",
    label: "Export TypeScript module",
    group: "Project",
    run: ({ projectId }) => download(exportUrl(projectId, "ts")),
  },
  {
    id: "export-zip",
    label: "Export Standard Agents project (.zip)",
    group: "Project",
    run: ({ projectId }) => download(exportUrl(projectId, "zip")),
  },
  {
    id: "export-json",
    label: "Export JSON bundle",
    group: "Project",
    run: ({ projectId }) => download(exportUrl(projectId, "json")),
  },
];

export function studioCommand(id: string): StudioCommand {
  const command = STUDIO_COMMANDS.find((candidate) => candidate.id === id);
  if (!command) throw new Error(`Unknown studio command "${id}".`);
  return command;
}

/** Mouse and canvas gestures, listed in the help dialog next to the commands' shortcuts. */
export const CANVAS_GESTURES: readonly { keys: string; label: string }[] = [
  { keys: "Shift+click, Ctrl/⌘+click", label: "Add a node or edge to the selection" },
  { keys: "Shift+drag on the canvas", label: "Select everything in a box" },
  { keys: "Drag the canvas", label: "Pan" },
  { keys: "Scroll, pinch", label: "Zoom" },
  {
    keys: "Drag from a handle to a node",
    label: "Connect (impossible connections are refused with a reason)",
  },
  { keys: "Arrow keys on a focused node", label: "Move it" },
  { keys: "Escape", label: "Close a dialog or menu" },
];
