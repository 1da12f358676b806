import { describe, expect, it } from "vitest";
import type { McpServerListing } from "@/lib/contracts/mcp";
import { mcpServerOptions, mcpToolOptions, NO_MCP_SERVERS_TEXT } from "./mcp-listing";

const servers: McpServerListing[] = [
  {
    id: "calc",
    state: "ready",
    tools: [
      { name: "add", inputSchema: { type: "object" } },
      { name: "shout", inputSchema: { type: "object" } },
    ],
  },
  { id: "down", state: "error", error: "connect ECONNREFUSED", tools: [] },
];

describe("MCP pick lists", () => {
  it("lists every configured server, saying which cannot be reached", () => {
    expect(mcpServerOptions(servers)).toEqual([
      { value: "", label: "(choose a server)" },
      { value: "calc", label: "calc (2 tools)" },
      { value: "down", label: "down (unavailable)" },
    ]);
  });

  it("lists the chosen server's tools after 'every tool', and only that for an unknown server", () => {
    expect(mcpToolOptions(servers, "calc").map((option) => option.value)).toEqual(["", "add", "shout"]);
    expect(mcpToolOptions(servers, "elsewhere")).toEqual([
      { value: "", label: "(every tool of the server)" },
    ]);
  });

  it("says where to configure a server when there is none", () => {
    expect(NO_MCP_SERVERS_TEXT).toContain("extensions/mcp.json");
    expect(NO_MCP_SERVERS_TEXT).toContain("docs/runtime.md");
  });
});
