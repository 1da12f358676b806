// Runs an HTTP tool (a tool defined as data, never code): fills the URL template with URI-encoded
// arguments, sends the rest as the query (GET/DELETE) or a JSON body, reads header secrets from the
// server's environment by name, and refuses private and loopback addresses unless the server allows
// them (http-address-policy.ts), so a browser-made definition cannot reach internal services.
import dns, { type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { HttpToolDefinition } from "@/lib/standard";
import { redactError, redactSecrets } from "../security/redact";
import { addressRefusal, type HttpAddressPolicy, httpAddressPolicy } from "./http-address-policy";

export { isPrivateAddress } from "./http-address-policy";

type LookupOptions = dns.LookupOptions;
type LookupCallback = (error: Error | null, address: string | LookupAddress[], family: number) => void;

export const DEFAULT_HTTP_TOOL_TIMEOUT_MS = 30_000;
const MAX_RESULT_CHARACTERS = 20_000;

export class HttpToolError extends Error {}

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

const MAX_REDIRECTS = 5;
/** Bytes of a response read at most; the result keeps MAX_RESULT_CHARACTERS of them. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * Runs the tool. Every connection, including each redirect hop, resolves the host itself, checks
 * every address the name resolves to against the address policy, and connects to the address it
 * checked (the lookup is pinned), so a DNS answer that changes between check and connect (DNS
 * rebinding) cannot slip a private address in. Refusals are HttpToolErrors, which the tool executor
 * turns into error tool results.
 */
export async function runHttpTool(
  tool: HttpToolDefinition,
  args: Record<string, unknown>,
  options: { env?: Record<string, string | undefined>; abortSignal?: AbortSignal } = {},
): Promise<{ status: "success" | "error"; text: string }> {
  const env = options.env ?? process.env;
  const plan = planHttpRequest(tool, args, env);
  const policy = httpAddressPolicy(env);
  const timeoutMs = tool.timeoutMs ?? DEFAULT_HTTP_TOOL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, timeout]) : timeout;
  // A server may echo the credentials it was sent; they must not reach the model or the logs.
  const secrets = Object.values(tool.headers ?? {}).map((value) =>
    typeof value === "string" ? undefined : env[value.env],
  );
  let request = plan;
  try {
    for (let hop = 0; ; hop++) {
      const response = await sendPinned(request, policy, signal);
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.status) && typeof location === "string") {
        if (hop >= MAX_REDIRECTS)
          throw new HttpToolError(`Stopped after ${MAX_REDIRECTS} redirects (last to ${location}).`);
        request = redirectedRequest(request, response.status, location);
        continue;
      }
      const text = redactSecrets(response.body, secrets).slice(0, MAX_RESULT_CHARACTERS);
      return response.status >= 200 && response.status < 300
        ? { status: "success", text }
        : { status: "error", text: `HTTP ${response.status}: ${text}` };
    }
  } catch (error) {
    if (timeout.aborted) throw new HttpToolError(`The request timed out after ${timeoutMs} ms.`);
    throw redactError(error, secrets);
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The next hop: 303 (and 301/302 after a POST, as browsers do) becomes a GET without a body. */
function redirectedRequest(previous: HttpRequestPlan, status: number, location: string): HttpRequestPlan {
  let target: URL;
  try {
    target = new URL(location, previous.url);
  } catch {
    throw new HttpToolError(`The server redirected to an invalid URL: ${location}`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new HttpToolError(`Refusing to follow a redirect to ${target.protocol} (only http and https).`);
  const sameOrigin = target.origin === new URL(previous.url).origin;
  const becomesGet = status === 303 || ((status === 301 || status === 302) && previous.method === "POST");
  // Header secrets were meant for the tool's own host: never hand them to another origin.
  const headers = sameOrigin ? { ...previous.headers } : {};
  if (becomesGet) delete headers["content-type"];
  return {
    url: target.toString(),
    method: becomesGet ? "GET" : previous.method,
    headers,
    ...(becomesGet || previous.body === undefined ? {} : { body: previous.body }),
  };
}

interface PinnedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function sendPinned(plan: HttpRequestPlan, policy: HttpAddressPolicy, signal: AbortSignal) {
  const url = new URL(plan.url);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(hostname)) {
    // Node connects to a literal address without calling `lookup`, so it is checked here.
    const refusal = addressRefusal(policy, hostname, hostname);
    if (refusal) return Promise.reject(new HttpToolError(refusal));
  }
  const lookup = ((host: string, options: LookupOptions, callback: LookupCallback) => {
    dns.lookup(host, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const resolved = addresses as LookupAddress[];
      for (const entry of resolved) {
        const refusal = addressRefusal(policy, host, entry.address);
        if (refusal) return callback(new HttpToolError(refusal), "", 0);
      }
      const first = resolved[0];
      if (!first) return callback(new HttpToolError(`${host} did not resolve to any address.`), "", 0);
      if (options.all) return callback(null, resolved as unknown as string, 0);
      callback(null, first.address, first.family);
    });
  }) as unknown as net.LookupFunction;
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<PinnedResponse>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: plan.method,
        headers: {
          ...plan.headers,
          ...(plan.body !== undefined ? { "content-length": String(Buffer.byteLength(plan.body)) } : {}),
        },
        lookup,
        signal,
        // Each tool call gets its own connection, so a pooled socket never skips the lookup.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) response.destroy();
        });
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", (error) => (size >= MAX_RESPONSE_BYTES ? finish() : reject(error)));
      },
    );
    request.on("error", (error) =>
      reject(error instanceof HttpToolError ? error : describeNetworkError(error, url)),
    );
    request.end(plan.body);
  });
}

function describeNetworkError(error: Error, url: URL): Error {
  if (error.name === "AbortError") return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new HttpToolError(`The request to ${url.host} failed: ${code ?? error.message}.`);
}
