// Typed errors the runtime raises. Each has a stable machine code and a kind; the HTTP layer maps
// kinds to status codes in one place (app/api/_lib/http.ts). Messages say what to do next.
import type { GraphDiagnostic } from "@/lib/graph";

export type TandemErrorKind =
  | "invalid_input"
  | "not_found"
  | "conflict"
  | "invalid_definitions"
  | "terminated"
  | "payload_too_large"
  | "unprocessable"
  | "precondition_failed"
  | "unauthorized"
  | "forbidden"
  | "too_many_requests";

/** Brand that survives bundling: Next.js may load this module once per route chunk, so `instanceof` is unreliable. */
const TANDEM_ERROR = Symbol.for("tandem.error");

export function isTandemError(error: unknown): error is TandemError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[TANDEM_ERROR] === true
  );
}

export class TandemError extends Error {
  readonly [TANDEM_ERROR] = true;

  constructor(
    readonly kind: TandemErrorKind,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInputError extends TandemError {
  constructor(message: string, details: Record<string, unknown> = {}, code = "invalid_input") {
    super("invalid_input", code, message, details);
  }
}

export class NotFoundError extends TandemError {
  constructor(what: string, id: string) {
    super("not_found", `${what.toLowerCase().replaceAll(" ", "_")}_not_found`, `${what} not found: ${id}`);
  }
}

/** Well-formed input that cannot be acted on yet (422), e.g. bootstrap values still missing. */
export class UnprocessableError extends TandemError {
  constructor(message: string, details: Record<string, unknown> = {}, code = "unprocessable") {
    super("unprocessable", code, message, details);
  }
}

export class ConflictError extends TandemError {
  constructor(message: string, details: Record<string, unknown> = {}, code = "conflict") {
    super("conflict", code, message, details);
  }
}

/** A conditional request whose condition does not hold (412), e.g. `If-None-Match: *` on a path that exists. */
export class PreconditionFailedError extends TandemError {
  constructor(message: string, details: Record<string, unknown> = {}, code = "precondition_failed") {
    super("precondition_failed", code, message, details);
  }
}

/** No valid session, API token or project key (401; docs/security.md). */
export class UnauthorizedError extends TandemError {
  constructor(message: string, details: Record<string, unknown> = {}, code = "unauthorized") {
    super("unauthorized", code, message, details);
  }
}

/** Signed in, but this role, scope or project may not do that (403). */
export class ForbiddenError extends TandemError {
  constructor(message: string, details: Record<string, unknown> = {}, code = "forbidden") {
    super("forbidden", code, message, details);
  }
}

/** Too many attempts (429), e.g. repeated failed sign-ins; `retry_after_seconds` says when to try again. */
export class TooManyRequestsError extends TandemError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = "too_many_attempts",
  ) {
    super("too_many_requests", code, message, { retry_after_seconds: retryAfterSeconds });
  }
}

export class InvalidDefinitionsError extends TandemError {
  constructor(readonly diagnostics: GraphDiagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const first = errors[0];
    super(
      "invalid_definitions",
      "invalid_definitions",
      first
        ? `The definitions have ${errors.length} error(s); first: ${first.path}: ${first.message}`
        : "The definitions are invalid.",
      { diagnostics },
    );
  }
}

export class PayloadTooLargeError extends TandemError {
  constructor(limitBytes: number, setting?: string) {
    super(
      "payload_too_large",
      "payload_too_large",
      `The request body is larger than the limit of ${formatBytes(limitBytes)}.${setting ? ` The server's ${setting} sets it.` : ""}`,
      { limit_bytes: limitBytes },
    );
  }
}

function formatBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB (${bytes} bytes)` : `${bytes} bytes`;
}
