// The HTTP edge: parse request bodies with zod, and map every typed error to a status code and a
// JSON body `{ error, code, ...details }` in this one place. Bad input never becomes a 500.
import { z } from "zod";
import { isTandemError, PayloadTooLargeError, type TandemErrorKind } from "@/runtime/errors";

const STATUS_FOR_KIND: Record<TandemErrorKind, number> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  invalid_definitions: 422,
  terminated: 423,
  payload_too_large: 413,
  unprocessable: 422,
};

/** Large enough for a 300-node canvas with long prompts; small enough to refuse abuse. */
export const MAX_JSON_BODY_BYTES = 5 * 1024 * 1024;

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

/** Wraps a route handler so that thrown errors become proper JSON responses. */
export function handle<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args: Args) => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
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

export async function readBodyText(request: Request, limitBytes = MAX_JSON_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw new PayloadTooLargeError(limitBytes);
  const text = await request.text();
  if (Buffer.byteLength(text) > limitBytes) throw new PayloadTooLargeError(limitBytes);
  return text;
}

/** The raw body, refused above the limit (checked against the declared length first, then the bytes read). */
export async function readBodyBytes(request: Request, limitBytes = MAX_JSON_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw new PayloadTooLargeError(limitBytes);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > limitBytes) throw new PayloadTooLargeError(limitBytes);
  return bytes;
}

/** Reads a JSON body and parses it with the schema; malformed JSON and schema misses are 400s. */
export async function readJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  const text = await readBodyText(request);
  let body: unknown;
  try {
    body = text.trim() === "" ? undefined : JSON.parse(text);
  } catch (error) {
    throw new z.ZodError([
      {
        code: "custom",
        path: [],
        message: `The body is not valid JSON (${(error as Error).message}).`,
        input: text,
      },
    ]);
  }
  if (body === undefined) {
    throw new z.ZodError([
      { code: "custom", path: [], message: "The request needs a JSON body.", input: body },
    ]);
  }
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
