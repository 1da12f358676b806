// GET|POST|PUT|PATCH|DELETE /api/threads/:id/endpoints/*path — the thread endpoints of this server's
// extensions (`threads/<path>.ts`, spec Threads §endpoints). 404 for an unknown thread or path, 405
// with Allow for a path that answers other methods only, and a bare 500 `endpoint_failed` when the
// handler throws (the reason is logged on the server; no message or stack reaches the client), 504
// `endpoint_timeout` when it has not answered within TANDEM_ENDPOINT_TIMEOUT_MS (default 30 s). The
// body is read under TANDEM_MAX_UPLOAD_BYTES first (413 above it), so handlers get a bounded one.
import { getRuntime } from "@/runtime/runtime";
import { handle, jsonError, readBodyBytes, UPLOAD_BODY_LIMIT } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; path?: string[] }> };

/** The request with its body read (bounded) so a handler can consume it freely. */
async function bounded(request: Request): Promise<Request> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return request;
  const body = Buffer.from(await readBodyBytes(request, UPLOAD_BODY_LIMIT));
  return new Request(request.url, { method: request.method, headers: request.headers, body });
}

const answer = handle(async (request: Request, context: Context) => {
  const { id, path } = await context.params;
  const runtime = await getRuntime();
  const outcome = await runtime.endpoints.handle(id, path ?? [], await bounded(request));
  if (outcome.kind === "response") return outcome.response;
  if (outcome.kind === "method_not_allowed") {
    const refusal = jsonError(405, "method_not_allowed", outcome.message, { allow: outcome.allow });
    refusal.headers.set("allow", outcome.allow.join(", "));
    return refusal;
  }
  if (outcome.kind === "timed_out")
    return jsonError(504, "endpoint_timeout", outcome.message, { timeout_ms: outcome.timeoutMs });
  return jsonError(500, "endpoint_failed", "Endpoint failed");
});

export const GET = answer;
export const POST = answer;
export const PUT = answer;
export const PATCH = answer;
export const DELETE = answer;
