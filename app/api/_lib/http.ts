// The HTTP edge: check the optional API token, parse request bodies with zod (refusing oversized
// ones while they stream in), and map every typed error to a status code and a JSON body
// `{ error, code, ...details }` in this one place. Bad input never becomes a 500.
import { z } from "zod";
import { findPolicy } from "@/lib/access/policy";
import { findPrototypeKeys } from "@/lib/standard";
import { isTandemError, PayloadTooLargeError, type TandemErrorKind } from "@/runtime/errors";
import { getRuntime, runAs } from "@/runtime/runtime";
import { authoriseRequest } from "@/runtime/security/api-token";
import { writeAudit } from "./audit";

const STATUS_FOR_KIND: Record<TandemErrorKind, number> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  invalid_definitions: 422,
  terminated: 423,
  payload_too_large: 413,
  unprocessable: 422,
  precondition_failed: 412,
  unauthorized: 401,
  forbidden: 403,
  too_many_requests: 429,
};

const MIB = 1024 * 1024;

function limitFromEnvironment(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    console.warn(`[tandem] ${name}=${raw} is not a positive integer (bytes); using ${fallback}.`);
    return fallback;
  }
  return value;
}

export interface BodyLimit {
  bytes: number;
  /** The environment variable that sets it, named in the 413 so an operator knows what to change. */
  setting: string;
}

/**
 * JSON bodies (TANDEM_MAX_JSON_BODY_BYTES, default 5 MiB): large enough for a 300-node canvas with
 * long prompts and for a message carrying base64 attachments; small enough to refuse abuse.
 */
export const JSON_BODY_LIMIT: BodyLimit = {
  bytes: limitFromEnvironment("TANDEM_MAX_JSON_BODY_BYTES", 5 * MIB),
  setting: "TANDEM_MAX_JSON_BODY_BYTES",
};

/** Raw uploads — thread files and imported zips or TypeScript (TANDEM_MAX_UPLOAD_BYTES, default 10 MiB). */
export const UPLOAD_BODY_LIMIT: BodyLimit = {
  bytes: limitFromEnvironment("TANDEM_MAX_UPLOAD_BYTES", 10 * MIB),
  setting: "TANDEM_MAX_UPLOAD_BYTES",
};

export function jsonError(
  status: number,
  code: string,
  error: string,
  details: Record<string, unknown> = {},
) {
  return Response.json({ error, code, ...details }, { status });
}

export function errorResponse(error: unknown): Response {
  if (isTandemError(error)) {
    return jsonError(STATUS_FOR_KIND[error.kind], error.code, error.message, error.details);
  }
  if (isZodError(error)) {
    return jsonError(400, "invalid_request", describeZodError(error), { issues: zodIssues(error) });
  }
  console.error("[tandem] unexpected error while handling a request:", error);
  return jsonError(500, "internal_error", "Something went wrong on the server. It has been logged.");
}

/** 401 for a request without the API token (or the browser session) when TANDEM_API_TOKEN is set. */
export function refuseUnauthorised(request: unknown): Response | null {
  const headers = request instanceof Request ? request.headers : new Headers();
  const authorisation = authoriseRequest(headers);
  if (authorisation.ok) return null;
  const response = jsonError(
    401,
    "unauthorized",
    authorisation.reason === "missing_credentials"
      ? "This server requires an API token: send `Authorization: Bearer <token>` (browsers sign in at /login)."
      : "The API token (or the browser session) is not valid. Check TANDEM_API_TOKEN, or sign in again at /login.",
  );
  response.headers.set("www-authenticate", 'Bearer realm="tandem"');
  return response;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF (docs/security.md): a cookie-authenticated write must come from our own pages. Browsers send
 * Origin on every cross-site POST/PUT/PATCH/DELETE (and Sec-Fetch-Site); a request that says it came
 * from another site is refused. Scripts send neither and authenticate with a bearer key or token,
 * which a forged cross-site request cannot carry. The cookie itself is SameSite=Strict besides.
 */
export function isCrossSiteRequest(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  if (origin === "null") return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const hosts = [request.headers.get("host"), request.headers.get("x-forwarded-host")?.split(",")[0]?.trim()];
  return !hosts.includes(originHost);
}

/** The value of a top-level field of the JSON body, read from a copy (the handler reads the body). */
async function bodyFieldOf(request: Request, field: string): Promise<unknown> {
  const text = await readBodyText(request.clone());
  try {
    const body: unknown = JSON.parse(text);
    return body !== null && typeof body === "object" ? (body as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who may call what (docs/security.md): the request's route is looked up in the one policy table
 * (lib/access/policy.ts) and the caller — the API token, a signed-in user or a project key — checked
 * against it; without accounts and without TANDEM_API_TOKEN everything is open, as before. Runs the
 * handler as that principal (`currentPrincipal()`), and writes the audit entry the table names
 * once the handler succeeded.
 */
async function authorisedRun(request: Request, run: () => Promise<Response>): Promise<Response> {
  const url = new URL(request.url);
  const match = findPolicy(request.method, url.pathname);
  const runtime = await getRuntime();
  const authentication = await runtime.access.authenticate(request.headers);
  const { principal, projectId } = await runtime.access.authorise(authentication, match, {
    url,
    bodyField: (field) => bodyFieldOf(request, field),
  });
  if (authentication.viaCookie && !SAFE_METHODS.has(request.method) && isCrossSiteRequest(request)) {
    return jsonError(
      403,
      "forbidden",
      "Cross-site request refused: a browser session may only change things from this server's own pages (send a project key as `Authorization: Bearer <key>` from scripts).",
    );
  }
  const response = await runAs(principal, run);
  const action = match?.entry.audit;
  // The open local server (no accounts, no token) has nobody to name: no audit entries.
  if (action && response.status < 300 && principal.type !== "open")
    await writeAudit(runtime, principal, action, match, projectId, response);
  return response;
}

/**
 * Wraps a route handler: checks who may call it first (unless `public`; see authorisedRun), and
 * turns thrown errors into proper JSON responses. Every route handler goes through here, which is why
 * the check lives here rather than in proxy.ts (a proxy that matched /api would buffer every request
 * body before the route could count it; see docs/runtime.md, "Security").
 */
export function handle<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
  options: { public?: boolean } = {},
): (...args: Args) => Promise<Response> {
  return async (...args: Args) => {
    try {
      const request = args[0];
      if (options.public) return await handler(...args);
      if (!(request instanceof Request)) {
        const refusal = refuseUnauthorised(request);
        if (refusal) return refusal;
        return await handler(...args);
      }
      return await authorisedRun(request, () => handler(...args));
    } catch (error) {
      return withAuthHeaders(errorResponse(error), error);
    }
  };
}

function withAuthHeaders(response: Response, error: unknown): Response {
  if (response.status === 401) response.headers.set("www-authenticate", 'Bearer realm="tandem"');
  if (response.status === 429 && isTandemError(error)) {
    const seconds = error.details.retry_after_seconds;
    if (typeof seconds === "number") response.headers.set("retry-after", String(seconds));
  }
  return response;
}

function isZodError(error: unknown): error is z.ZodError {
  return (
    error instanceof z.ZodError ||
    (error instanceof Error && error.name === "ZodError" && Array.isArray((error as z.ZodError).issues))
  );
}

function zodIssues(error: z.ZodError) {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    return text ? `${text}.${String(key)}` : String(key);
  }, "");
}

function describeZodError(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return "The request body is invalid.";
  const where = formatPath(first.path);
  return where ? `Invalid request: ${where}: ${first.message}` : `Invalid request: ${first.message}`;
}

/**
 * The raw body, refused with 413 above the limit without holding more than the limit in memory: a
 * declared Content-Length over the limit is refused before reading anything, and a body without one
 * (chunked) is counted as it streams and abandoned as soon as it passes the limit.
 */
export async function readBodyBytes(request: Request, limit = JSON_BODY_LIMIT): Promise<Uint8Array> {
  const limitBytes = limit.bytes;
  const tooLarge = () => new PayloadTooLargeError(limitBytes, limit.setting);
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** The body as UTF-8 text, under the same limit; bytes that are not UTF-8 are a 400. */
export async function readBodyText(request: Request, limit = JSON_BODY_LIMIT): Promise<string> {
  const bytes = await readBodyBytes(request, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new z.ZodError([
      { code: "custom", path: [], message: "The body is not valid UTF-8.", input: undefined },
    ]);
  }
}

/** Deeper than any definition or canvas needs; deep enough that validation never recurses off the stack. */
export const MAX_JSON_DEPTH = 64;

function invalidBody(message: string): z.ZodError {
  return new z.ZodError([{ code: "custom", path: [], message, input: undefined }]);
}

/**
 * Parses a JSON body (undefined when it is empty) and refuses what would fail further in: nesting
 * deeper than MAX_JSON_DEPTH (recursive validation would overflow the stack), NUL characters
 * (Postgres text and jsonb cannot store them) and own "__proto__" keys (copying one by assignment
 * would set an object's prototype). Walked with an explicit stack, never recursion.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw invalidBody(`The body is not valid JSON (${(error as Error).message}).`);
  }
  const pending: [unknown, number][] = [[body, 0]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop() as [unknown, number];
    if (typeof value === "string") {
      if (value.includes("\0"))
        throw invalidBody("The body contains a NUL character (\\u0000), which cannot be stored.");
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_JSON_DEPTH)
      throw invalidBody(`The body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    if (Array.isArray(value)) {
      for (const item of value) pending.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      pending.push([key, depth + 1]);
      pending.push([item, depth + 1]);
    }
  }
  const [prototypeKey] = findPrototypeKeys(body);
  if (prototypeKey) {
    throw new z.ZodError([
      {
        code: "custom",
        path: prototypeKey,
        message: '"__proto__" is not allowed as a property name. Rename or remove it.',
        input: undefined,
      },
    ]);
  }
  return body;
}

/** Reads a JSON body and parses it with the schema; malformed JSON and schema misses are 400s. */
export async function readJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  const body = parseJsonBody(await readBodyText(request));
  if (body === undefined) throw invalidBody("The request needs a JSON body.");
  return schema.parse(body);
}

/** Optional integer query parameter; a malformed one is a 400, not silently ignored. */
export function integerParam(url: URL, name: string, options: { min?: number; max?: number } = {}) {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return undefined;
  const value = Number(raw);
  if (
    !Number.isInteger(value) ||
    (options.min !== undefined && value < options.min) ||
    (options.max !== undefined && value > options.max)
  ) {
    throw new z.ZodError([
      {
        code: "custom",
        path: [name],
        message: `must be an integer${options.min !== undefined ? ` ≥ ${options.min}` : ""}${options.max !== undefined ? ` ≤ ${options.max}` : ""}`,
        input: raw,
      },
    ]);
  }
  return value;
}
