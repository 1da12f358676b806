// Runs an HTTP tool (a tool defined as data, never code): fills the URL template with URI-encoded
// arguments, sends the rest as the query (GET/DELETE) or a JSON body, reads header secrets from the
// server's environment by name, and refuses private and loopback addresses unless
// TANDEM_HTTP_TOOLS_ALLOW_PRIVATE=1 (so a browser-made definition cannot reach internal services).
import { lookup } from "node:dns/promises";
import net from "node:net";
import type { HttpToolDefinition } from "@/lib/spec";

export const DEFAULT_HTTP_TOOL_TIMEOUT_MS = 30_000;
const MAX_RESULT_CHARACTERS = 20_000;

export class HttpToolError extends Error {}

export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a = 0, b = 0] = address.split(".").map(Number);
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = address.toLowerCase();
  if (lower.startsWith("::ffff:")) return isPrivateAddress(lower.slice(7));
  return (
    lower === "::1" ||
    lower === "::" ||
    lower.startsWith("fc") ||
    lower.startsWith("fd") ||
    lower.startsWith("fe80")
  );
}

export interface HttpRequestPlan {
  url: string;
  method: HttpToolDefinition["method"];
  headers: Record<string, string>;
  body?: string;
}

/** Pure: the request an HTTP tool call makes. Throws HttpToolError for what the user must fix. */
export function planHttpRequest(
  tool: HttpToolDefinition,
  args: Record<string, unknown>,
  env: Record<string, string | undefined>,
): HttpRequestPlan {
  const used = new Set<string>();
  const url = tool.url.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    used.add(name);
    const value = args[name];
    if (value === undefined || value === null)
      throw new HttpToolError(`Missing argument "${name}" for the URL.`);
    return encodeURIComponent(typeof value === "string" ? value : JSON.stringify(value));
  });
  const rest = Object.fromEntries(Object.entries(args).filter(([name]) => !used.has(name)));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(tool.headers ?? {})) {
    if (typeof value === "string") {
      headers[name] = value;
      continue;
    }
    const secret = env[value.env];
    if (secret === undefined || secret === "") {
      throw new HttpToolError(
        `The server has no environment variable ${value.env} (needed for header ${name}).`,
      );
    }
    headers[name] = `${value.prefix ?? ""}${secret}`;
  }
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new HttpToolError("Only http and https URLs are allowed.");
  if (tool.method === "GET" || tool.method === "DELETE") {
    for (const [name, value] of Object.entries(rest)) {
      target.searchParams.set(name, typeof value === "string" ? value : JSON.stringify(value));
    }
    return { url: target.toString(), method: tool.method, headers };
  }
  return {
    url: target.toString(),
    method: tool.method,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(rest),
  };
}

export async function runHttpTool(
  tool: HttpToolDefinition,
  args: Record<string, unknown>,
  options: { env?: Record<string, string | undefined>; abortSignal?: AbortSignal } = {},
): Promise<{ status: "success" | "error"; text: string }> {
  const env = options.env ?? process.env;
  const plan = planHttpRequest(tool, args, env);
  const host = new URL(plan.url).hostname.replace(/^\[|\]$/g, "");
  if (env.TANDEM_HTTP_TOOLS_ALLOW_PRIVATE !== "1") {
    const addresses = net.isIP(host)
      ? [host]
      : (await lookup(host, { all: true })).map((entry) => entry.address);
    if (addresses.some(isPrivateAddress)) {
      throw new HttpToolError(
        `Refusing to call ${host}: it is a private or loopback address. Set TANDEM_HTTP_TOOLS_ALLOW_PRIVATE=1 on the server to allow it.`,
      );
    }
  }
  const timeout = AbortSignal.timeout(tool.timeoutMs ?? DEFAULT_HTTP_TOOL_TIMEOUT_MS);
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(plan.url, {
      method: plan.method,
      headers: plan.headers,
      body: plan.body,
      signal,
      redirect: "manual",
    });
  } catch (error) {
    if (timeout.aborted)
      throw new HttpToolError(
        `The request timed out after ${tool.timeoutMs ?? DEFAULT_HTTP_TOOL_TIMEOUT_MS} ms.`,
      );
    throw error;
  }
  const text = (await response.text()).slice(0, MAX_RESULT_CHARACTERS);
  return response.ok
    ? { status: "success", text }
    : { status: "error", text: `HTTP ${response.status}: ${text}` };
}
