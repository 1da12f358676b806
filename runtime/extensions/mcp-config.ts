// The MCP servers this server may use, from `extensions/mcp.json` (API.md "MCP"). Only servers named
// in this file ever run: a definition names a server id and can never start a process. A missing
// file means no servers; an invalid one is reported (logged) and yields no servers.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { MCP_SERVER_ID_PATTERN } from "@/lib/standard/tool";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const StdioServerSchema = z.object({
  transport: z.literal("stdio"),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Extra environment of the server process (the server's own file, never a definition). */
  env: z.record(z.string().regex(ENV_NAME), z.string()).optional(),
});

const HttpServerSchema = z.object({
  transport: z.literal("http"),
  url: z.url(),
  /** Request headers read from env variables by name at connect time: `{ "Authorization": "MCP_TOKEN" }`. */
  headersEnv: z.record(z.string().min(1), z.string().regex(ENV_NAME)).optional(),
});

export const McpServerConfigSchema = z.discriminatedUnion(
  "transport",
  [StdioServerSchema, HttpServerSchema],
  {
    error: 'An MCP server\'s "transport" must be "stdio" or "http".',
  },
);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

export const McpConfigSchema = z.object({
  servers: z.record(z.string().regex(MCP_SERVER_ID_PATTERN), McpServerConfigSchema),
});

export interface McpConfig {
  readonly file: string;
  readonly servers: ReadonlyMap<string, McpServerConfig>;
  /** Why the file could not be used, if it exists and is invalid. */
  readonly problem?: string;
}

export async function loadMcpConfig(extensionsDirectory: string): Promise<McpConfig> {
  const file = path.join(extensionsDirectory, "mcp.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { file, servers: new Map() };
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { file, servers: new Map(), problem: `not JSON: ${(error as Error).message}` };
  }
  const parsed = McpConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      file,
      servers: new Map(),
      problem: `${first?.path.join(".") || "(root)"}: ${first?.message ?? "invalid"}`,
    };
  }
  return { file, servers: new Map(Object.entries(parsed.data.servers)) };
}
