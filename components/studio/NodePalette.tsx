"use client";
// The node palette: a collapsible left sidebar listing every node kind (and the presets worth their
// own entry) with an icon, a one-line description and a search box. Drag an entry onto the canvas to
// drop a node there, or click it (Enter, Space) to add one in the middle of the visible canvas.
// Collapsed, it is a rail of the same icons, still draggable and clickable.
import { type DragEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { NO_MCP_SERVERS_TEXT } from "@/lib/studio/mcp-listing";
import { mcpToolPreset, NODE_PRESETS, type NodePreset } from "@/lib/studio/node-presets";
import { searchPalette } from "@/lib/studio/palette-search";
import { NodeKindIcon } from "./NodeKindIcon";
import { addPresetNode } from "./studio-actions";
import type { StudioCommandContext } from "./studio-commands";
import { mcpPreset, useMcpServers } from "./useMcpServers";

/** The drag-and-drop type of a palette entry; its data is the preset's id. */
export const NODE_PRESET_MIME = "application/x-tandem-node-preset";
const COLLAPSED_KEY = "tandem.studio.palette.collapsed";
/** Below this window width the palette starts as a rail, so the canvas keeps its room. */
const WIDE_WINDOW = 1400;

const entries = NODE_PRESETS.map((preset) => ({
  ...preset,
  keywords: `${preset.kind} ${preset.description} ${preset.keywords}`,
}));

/** A palette entry by id: a node kind, or a tool of a configured MCP server. */
export function paletteEntry(id: string): NodePreset | undefined {
  return NODE_PRESETS.find((candidate) => candidate.id === id) ?? mcpPreset(id);
}

function startDrag(event: DragEvent, preset: NodePreset) {
  event.dataTransfer.setData(NODE_PRESET_MIME, preset.id);
  event.dataTransfer.setData("text/plain", preset.label);
  event.dataTransfer.effectAllowed = "copy";
}

/** Up and Down move between the entries of a list (the search box's Down enters it). */
function moveFocus(event: KeyboardEvent<HTMLElement>, list: HTMLElement | null) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const items = [...(list?.querySelectorAll<HTMLElement>("[data-palette-entry]") ?? [])];
  if (items.length === 0) return;
  const index = items.indexOf(document.activeElement as HTMLElement);
  const next =
    index === -1
      ? event.key === "ArrowDown"
        ? 0
        : items.length - 1
      : (index + (event.key === "ArrowDown" ? 1 : -1) + items.length) % items.length;
  items[next]?.focus();
  event.preventDefault();
}

function useCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => {
    const stored = window.localStorage.getItem(COLLAPSED_KEY);
    setCollapsed(stored === null ? window.innerWidth < WIDE_WINDOW : stored === "true");
  }, []);
  const update = (next: boolean) => {
    setCollapsed(next);
    window.localStorage.setItem(COLLAPSED_KEY, String(next));
  };
  return [collapsed, update];
}

export function NodePalette({ context }: { context: StudioCommandContext }) {
  const [collapsed, setCollapsed] = useCollapsed();
  const [query, setQuery] = useState("");
  const results = useMemo(() => searchPalette(entries, query), [query]);
  const listedServers = useMcpServers();
  const mcpServers = useMemo(() => listedServers ?? [], [listedServers]);
  const mcpEntries = useMemo(
    () =>
      mcpServers.flatMap((server) =>
        server.tools.map((tool) => {
          const preset = mcpToolPreset(server.id, tool);
          return { ...preset, keywords: `${preset.label} ${preset.keywords}` };
        }),
      ),
    [mcpServers],
  );
  const mcpResults = useMemo(() => searchPalette(mcpEntries, query), [mcpEntries, query]);
  const unavailable = mcpServers.filter((server) => server.state === "error");
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();
  const add = (preset: NodePreset) => addPresetNode(context.store, context.viewport, preset);

  if (collapsed) {
    return (
      <aside
        aria-label="Node palette"
        className="flex w-11 shrink-0 flex-col items-center gap-1 border-r border-border bg-surface py-2"
      >
        <button
          type="button"
          aria-label="Expand the node palette"
          aria-expanded={false}
          title="Expand the node palette"
          onClick={() => setCollapsed(false)}
          className="mb-1 flex size-8 items-center justify-center rounded text-muted hover:bg-surface-muted"
        >
          <span aria-hidden="true">»</span>
        </button>
        <ul
          aria-label="Node kinds"
          ref={list}
          className="flex flex-col gap-1"
          onKeyDown={(e) => moveFocus(e, list.current)}
        >
          {NODE_PRESETS.map((preset) => (
            <li key={preset.id}>
              <button
                type="button"
                draggable
                data-palette-entry={preset.id}
                aria-label={`Add ${preset.label.toLowerCase()}: ${preset.description}`}
                title={`${preset.label} — ${preset.description}. Drag onto the canvas or click to add.`}
                onDragStart={(event) => startDrag(event, preset)}
                onClick={() => add(preset)}
                className="flex size-8 cursor-grab items-center justify-center rounded hover:bg-surface-muted active:cursor-grabbing"
              >
                <NodeKindIcon preset={preset} />
              </button>
            </li>
          ))}
        </ul>
      </aside>
    );
  }

  return (
    <aside
      aria-label="Node palette"
      className="flex w-60 shrink-0 flex-col border-r border-border bg-surface"
    >
      <div className="flex items-center justify-between px-3 pt-2">
        <h2 className="text-sm font-semibold">Nodes</h2>
        <button
          type="button"
          aria-label="Collapse the node palette"
          aria-expanded={true}
          aria-controls={listId}
          title="Collapse the node palette"
          onClick={() => setCollapsed(true)}
          className="flex size-7 items-center justify-center rounded text-muted hover:bg-surface-muted"
        >
          <span aria-hidden="true">«</span>
        </button>
      </div>
      <div className="px-3 py-2">
        <input
          type="search"
          aria-label="Search node kinds"
          aria-controls={listId}
          placeholder="Search nodes…"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => moveFocus(event, list.current)}
          className="h-7 w-full rounded border border-border bg-background px-2 text-xs"
        />
      </div>
      <ul
        id={listId}
        ref={list}
        aria-label="Node kinds"
        className="flex min-h-0 flex-1 flex-col gap-0.5 overflow-y-auto px-1.5 pb-2"
        onKeyDown={(event) => moveFocus(event, list.current)}
      >
        {results.map((preset) => (
          <li key={preset.id}>
            <button
              type="button"
              draggable
              data-palette-entry={preset.id}
              title={`${preset.label}: ${preset.description}. Drag onto the canvas, or click to add it in view.`}
              onDragStart={(event) => startDrag(event, preset)}
              onClick={() => add(preset)}
              className="flex w-full cursor-grab items-center gap-2 rounded px-1.5 py-1 text-left hover:bg-surface-muted active:cursor-grabbing"
            >
              <NodeKindIcon preset={preset} />
              <span className="flex min-w-0 flex-col">
                <span className="text-xs font-medium">{preset.label}</span>
                <span className="truncate text-[11px] leading-snug text-muted">{preset.description}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {results.length === 0 && mcpResults.length === 0 ? (
        <p role="status" className="px-3 pb-2 text-xs text-muted">
          No node kind matches “{query}”.
        </p>
      ) : null}
      {listedServers !== null && listedServers.length === 0 ? (
        <section aria-label="MCP tools" className="border-t border-border px-3 py-2">
          <h3 className="text-xs font-semibold">MCP tools</h3>
          <p className="text-[11px] leading-snug text-muted">{NO_MCP_SERVERS_TEXT}</p>
        </section>
      ) : null}
      {mcpEntries.length > 0 || unavailable.length > 0 ? (
        <section aria-label="MCP tools" className="flex max-h-[40%] min-h-0 flex-col border-t border-border">
          <h3 className="px-3 pt-2 text-xs font-semibold">MCP tools</h3>
          <ul
            aria-label="MCP tools"
            className="flex min-h-0 flex-col gap-0.5 overflow-y-auto px-1.5 py-1"
            onKeyDown={(event) => moveFocus(event, event.currentTarget)}
          >
            {mcpResults.map((preset) => (
              <li key={preset.id}>
                <button
                  type="button"
                  draggable
                  data-palette-entry={preset.id}
                  title={`${preset.label} (${preset.description}). Drag onto the canvas, or click to add it in view.`}
                  onDragStart={(event) => startDrag(event, preset)}
                  onClick={() => add(preset)}
                  className="flex w-full cursor-grab items-center gap-2 rounded px-1.5 py-1 text-left hover:bg-surface-muted active:cursor-grabbing"
                >
                  <NodeKindIcon preset={preset} />
                  <span className="flex min-w-0 flex-col">
                    <span className="truncate text-xs font-medium">{preset.label}</span>
                    <span className="truncate text-[11px] leading-snug text-muted">{preset.description}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {unavailable.map((server) => (
            <p
              key={server.id}
              className="px-3 pb-1 text-[11px] leading-snug text-danger"
              title={server.error}
            >
              MCP server “{server.id}” is unavailable.
            </p>
          ))}
        </section>
      ) : null}
      <p className="border-t border-border px-3 py-2 text-[11px] leading-snug text-muted">
        Drag onto the canvas, or click to add in the middle of the view.
      </p>
    </aside>
  );
}
