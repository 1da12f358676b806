// Every studio command as data — id, label, group, shortcuts, run — shared by the keyboard handler,
// the command palette, the help dialog and the toolbar's aria-keyshortcuts.

import type { Arrangement } from "@/lib/studio/alignment";
import { nodePreset } from "@/lib/studio/node-presets";
import type { StudioStore } from "@/lib/studio/studio-store";
import { layoutCanvas } from "./layout-actions";
import { requestSave } from "./save-document";
import {
  addPresetNode,
  arrangeSelection,
  canArrange,
  copySelection,
  deleteSelected,
  duplicateSelection,
  pasteClipboard,
  type StudioViewport,
  selectAll,
} from "./studio-actions";
import { focusNextRegion } from "./studio-regions";

export interface StudioCommandContext {
  store: StudioStore;
  viewport: StudioViewport;
  projectId: string;
  /** Why the signed-in user's role may not save (the role table), or null/absent when it may. */
  saveRefused?: string | null;
}

export type StudioCommandGroup = "Add" | "Edit" | "Arrange" | "Canvas" | "Project" | "Help";

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
  /** Whether the command applies now (menus and the palette hide it otherwise); always when absent. */
  available?(context: StudioCommandContext): boolean;
  run(context: StudioCommandContext): void | Promise<void>;
}

/** The add commands: command id → the palette preset it adds (lib/studio/node-presets). */
const ADDABLE: { id: string; preset: string; label: string }[] = [
  { id: "add-agent", preset: "agent", label: "Add agent" },
  { id: "add-agent-dual-ai", preset: "agent-dual-ai", label: "Add dual-AI agent" },
  { id: "add-prompt", preset: "prompt", label: "Add prompt" },
  { id: "add-tool", preset: "tool-builtin", label: "Add tool" },
  { id: "add-tool-http", preset: "tool-http", label: "Add HTTP tool" },
  { id: "add-model", preset: "model", label: "Add model" },
  { id: "add-note", preset: "note", label: "Add note" },
];

/** Align and distribute the selected nodes; each is one undo step. */
const ARRANGEMENTS: { id: string; label: string; arrangement: Arrangement }[] = [
  { id: "align-left", label: "Align left", arrangement: { kind: "align", alignment: "left" } },
  { id: "align-centre", label: "Align centre", arrangement: { kind: "align", alignment: "centre" } },
  { id: "align-right", label: "Align right", arrangement: { kind: "align", alignment: "right" } },
  { id: "align-top", label: "Align top", arrangement: { kind: "align", alignment: "top" } },
  { id: "align-middle", label: "Align middle", arrangement: { kind: "align", alignment: "middle" } },
  { id: "align-bottom", label: "Align bottom", arrangement: { kind: "align", alignment: "bottom" } },
  {
    id: "distribute-horizontally",
    label: "Distribute horizontally",
    arrangement: { kind: "distribute", axis: "horizontal" },
  },
  {
    id: "distribute-vertically",
    label: "Distribute vertically",
    arrangement: { kind: "distribute", axis: "vertical" },
  },
];

export const ARRANGE_COMMAND_IDS: readonly string[] = ARRANGEMENTS.map(({ id }) => id);

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
    id: "next-region",
    label: "Go to the next area (toolbar, palette, canvas, inspector or playground, problems)",
    group: "Help",
    keys: ["F6"],
    whileTyping: true,
    run: () => focusNextRegion(1),
  },
  {
    id: "previous-region",
    label: "Go to the previous area",
    group: "Help",
    keys: ["Shift+F6"],
    whileTyping: true,
    run: () => focusNextRegion(-1),
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
    ({ id, preset, label }): StudioCommand => ({
      id,
      label,
      group: "Add",
      run: ({ store, viewport }) => void addPresetNode(store, viewport, nodePreset(preset)),
    }),
  ),
  ...ARRANGEMENTS.map(
    ({ id, label, arrangement }): StudioCommand => ({
      id,
      label,
      group: "Arrange",
      available: ({ store }) => canArrange(store.getState().selection.nodeIds.length, arrangement),
      run: ({ store, viewport }) => arrangeSelection(store, viewport, arrangement, label),
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
    run: ({ store, viewport }) =>
      void layoutCanvas(store, viewport.layoutRoom(), () =>
        requestAnimationFrame(() => viewport.fitCanvas({ duration: 200 })),
      ),
  },
  {
    id: "fit-view",
    label: "Zoom to fit",
    group: "Canvas",
    run: ({ viewport }) => viewport.fitCanvas({ duration: 200 }),
  },
  {
    id: "save",
    label: "Save",
    group: "Project",
    keys: ["Mod+S"],
    whileTyping: true,
    run: ({ store, projectId, saveRefused }) =>
      saveRefused
        ? store.getState().setStatus({ tone: "error", text: saveRefused })
        : requestSave(store, projectId),
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

/**
 * The code pane's own keys (CodePane binds them from here, so the help dialog lists what it binds):
 * apply the typed code now, and move to the next problem marked in the code.
 */
export const CODE_PANE_SHORTCUTS = {
  apply: { keys: "Mod+Enter", label: "Apply the code to the canvas now" },
  nextProblem: { keys: "F8", label: "Go to the next problem in the code" },
} as const;

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
  { keys: "Tab, Shift+Tab", label: "Focus the next or previous node or edge" },
  { keys: "Enter, Space", label: "Select the focused node or edge" },
  // React Flow's own keyboard moves: 5 px a press, four times that with Shift.
  { keys: "Arrow keys", label: "Move the selected nodes 5 px (with Shift, 20 px)" },
  { keys: "Escape", label: "Close a dialog or menu" },
];
