"use client";
// Ctrl/Cmd+K: one search box over the canvas's nodes (by name, kind and title) and every command.
// Arrow keys move through the results, Enter runs the highlighted one, Escape closes.
import { useMemo, useState } from "react";
import { Dialog } from "@/components/ui/Dialog";
import { definitionName, type GraphNode, isDefinitionNode } from "@/lib/graph";
import { EFFECTS_TEXT, NO_MCP_SERVERS_TEXT } from "@/lib/studio/mcp-listing";
import { mcpToolPreset } from "@/lib/studio/node-presets";
import { type PaletteEntry, searchPalette } from "@/lib/studio/palette-search";
import { shortcutLabel } from "@/lib/studio/shortcuts";
import { isMacPlatform } from "./platform";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { addPresetNode, focusNode } from "./studio-actions";
import { STUDIO_COMMANDS, type StudioCommandContext } from "./studio-commands";
import { useMcpServers } from "./useMcpServers";

interface PaletteItem extends PaletteEntry {
  /** What the result is, always in the last column: a node's kind or a command's group. */
  category: string;
  /** A command's keyboard shortcut, shown as keys before the category. */
  shortcut?: string;
  /** A help entry's explanation, shown under its label (wrapped), so searching for it answers. */
  detail?: string;
  run(): void;
}

const NODE_CATEGORY: Record<GraphNode["type"], string> = {
  agent: "Agent",
  prompt: "Prompt",
  tool: "Tool",
  model: "Model",
  note: "Note",
};

function nodeCategory(node: GraphNode): string {
  if (node.type === "agent" && node.data.definition.type === "dual_ai") return "Dual-AI agent";
  return NODE_CATEGORY[node.type];
}

const LISTBOX_ID = "studio-palette-results";
const optionId = (index: number) => `studio-palette-option-${index}`;

function usePaletteItems(context: StudioCommandContext): PaletteItem[] {
  const graph = useStudio((state) => state.history.present);
  // Which commands apply depends on the selection (align needs two nodes).
  const selection = useStudio((state) => state.selection);
  const mcpServers = useMcpServers();
  // biome-ignore lint/correctness/useExhaustiveDependencies: selection decides which commands are available.
  return useMemo(() => {
    const mac = isMacPlatform();
    const nodes = graph.nodes.map((node): PaletteItem => {
      const name = isDefinitionNode(node) ? definitionName(node) : node.data.text.split("\n")[0] || "note";
      const title = isDefinitionNode(node) ? node.data.definition.title : undefined;
      return {
        id: `node:${node.id}`,
        label: name || "(unnamed)",
        keywords: `${node.type} ${typeof title === "string" ? title : ""} node`,
        category: nodeCategory(node),
        run: () => focusNode(context.store, context.viewport, node.id),
      };
    });
    const commands = STUDIO_COMMANDS.filter(
      (command) => command.id !== "palette" && (!command.available || command.available(context)),
    ).map(
      (command): PaletteItem => ({
        id: `command:${command.id}`,
        label: command.label,
        keywords: `${command.group} command`,
        category: command.group,
        shortcut: command.keys?.[0] ? shortcutLabel(command.keys[0], mac) : undefined,
        run: () => void command.run(context),
      }),
    );
    const say = (text: string) => () => context.store.getState().setStatus({ tone: "info", text });
    // The tools of the configured MCP servers, added like the node palette adds them; when there is
    // none, one entry that says how to configure a server. Effects are server files: one entry says so.
    const mcpTools = (mcpServers ?? []).flatMap((server) =>
      server.tools.map((tool): PaletteItem => {
        const preset = mcpToolPreset(server.id, tool);
        return {
          id: `mcp:${server.id}:${tool.name}`,
          label: `Add MCP tool ${tool.name} (${server.id})`,
          keywords: `mcp server tool ${preset.keywords}`,
          category: "MCP",
          run: () => addPresetNode(context.store, context.viewport, preset),
        };
      }),
    );
    const mcpHelp: PaletteItem[] =
      mcpServers !== null && mcpServers.length === 0
        ? [
            {
              id: "help:mcp",
              label: "MCP servers: none configured",
              keywords: "mcp server tools extensions mcp.json how to add",
              category: "Help",
              detail: NO_MCP_SERVERS_TEXT,
              run: say(NO_MCP_SERVERS_TEXT),
            },
          ]
        : [];
    const effectsHelp: PaletteItem = {
      id: "help:effects",
      label: "Effects: written as server files",
      keywords: "effects effect schedule scheduleEffect extensions",
      category: "Help",
      detail: EFFECTS_TEXT,
      run: say(EFFECTS_TEXT),
    };
    return [...nodes, ...commands, ...mcpTools, ...mcpHelp, effectsHelp];
  }, [graph, context, selection, mcpServers]);
}

function PaletteBody({ context, close }: { context: StudioCommandContext; close(): void }) {
  const items = usePaletteItems(context);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const results = useMemo(() => searchPalette(items, query), [items, query]);
  const current = Math.min(active, Math.max(results.length - 1, 0));

  const choose = (item: PaletteItem | undefined) => {
    if (!item) return;
    close();
    item.run();
  };
  const move = (delta: number) => {
    if (results.length === 0) return;
    const next = (current + delta + results.length) % results.length;
    setActive(next);
    document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
  };

  return (
    <div className="flex max-h-[60vh] w-[32rem] flex-col">
      <input
        // biome-ignore lint/a11y/noAutofocus: the palette exists to be typed into.
        autoFocus
        role="combobox"
        aria-label="Search nodes and commands"
        aria-expanded="true"
        aria-controls={LISTBOX_ID}
        aria-autocomplete="list"
        aria-activedescendant={results.length ? optionId(current) : undefined}
        value={query}
        placeholder="Search nodes and commands…"
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") move(1);
          else if (event.key === "ArrowUp") move(-1);
          else if (event.key === "Home" && results.length) setActive(0);
          else if (event.key === "End" && results.length) setActive(results.length - 1);
          else if (event.key === "Enter") choose(results[current]);
          else return;
          event.preventDefault();
        }}
        className="border-b border-border bg-transparent px-4 py-3 text-sm outline-none"
      />
      <div id={LISTBOX_ID} role="listbox" aria-label="Results" className="min-h-0 flex-1 overflow-y-auto p-1">
        {results.map((item, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox owns the keyboard (aria-activedescendant).
          <div
            key={item.id}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === current}
            onMouseMove={() => setActive(index)}
            onClick={() => choose(item)}
            className={`flex cursor-pointer items-center justify-between gap-3 rounded px-3 py-1.5 ${
              index === current ? "bg-accent text-accent-contrast" : ""
            }`}
          >
            {item.detail ? (
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate">{item.label}</span>
                <span className={`text-xs leading-snug ${index === current ? "" : "text-muted"}`}>
                  {item.detail}
                </span>
              </span>
            ) : (
              <span className="min-w-0 flex-1 truncate">{item.label}</span>
            )}
            {item.shortcut ? (
              <kbd
                className={`shrink-0 rounded border px-1.5 font-sans text-[11px] leading-5 ${
                  index === current ? "border-accent-contrast/50" : "border-border text-muted"
                }`}
              >
                {item.shortcut}
              </kbd>
            ) : null}
            <span className={`w-24 shrink-0 text-right text-xs ${index === current ? "" : "text-muted"}`}>
              {item.category}
            </span>
          </div>
        ))}
      </div>
      {results.length === 0 ? (
        <p role="status" className="px-4 py-3 text-xs text-muted">
          Nothing matches “{query}”.
        </p>
      ) : null}
    </div>
  );
}

export function CommandPalette({ context }: { context: StudioCommandContext }) {
  const store = useStudioStore();
  const open = useStudio((state) => state.dialog === "palette");
  const close = () => store.getState().openDialog(null);
  return (
    <Dialog open={open} label="Command palette" onClose={close} className="mt-[12vh] mb-auto">
      <PaletteBody context={context} close={close} />
    </Dialog>
  );
}
