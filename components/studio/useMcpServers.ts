"use client";
// The MCP servers this server configures and their tools (GET /api/mcp/tools), asked once per studio
// and kept in its store: the node palette, the command palette and the tool inspector read them.
// Each listed tool is also a palette entry by id (`mcpPreset`), so a drop on the canvas finds it.
import { useEffect } from "react";
import { createApiClient } from "@/lib/api/client";
import type { McpServerListing } from "@/lib/contracts/mcp";
import { mcpToolPreset, type NodePreset } from "@/lib/studio/node-presets";
import type { StudioStore } from "@/lib/studio/studio-store";
import { useStudio, useStudioStore } from "./StudioStoreContext";

const asked = new WeakSet<StudioStore>();
const presets = new Map<string, NodePreset>();

/** The palette entry of a listed MCP tool by its id (`mcp:<server>:<tool>`). */
export function mcpPreset(id: string): NodePreset | undefined {
  return presets.get(id);
}

/** The listed servers, or null until the server answered (and when it could not be asked). */
export function useMcpServers(): McpServerListing[] | null {
  const store = useStudioStore();
  const servers = useStudio((state) => state.mcpServers);
  useEffect(() => {
    if (store.getState().mcpServers || asked.has(store)) return;
    asked.add(store);
    createApiClient()
      .mcp.servers()
      .then((listed) => {
        for (const server of listed)
          for (const tool of server.tools) {
            const preset = mcpToolPreset(server.id, tool);
            presets.set(preset.id, preset);
          }
        store.getState().setMcpServers(listed);
      })
      // Without an answer the palette offers no MCP tools and the inspector takes a typed server id.
      .catch(() => {});
  }, [store]);
  return servers;
}
