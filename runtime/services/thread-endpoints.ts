// Thread endpoints (spec Threads §endpoints) as the route /api/threads/:id/endpoints/<path> sees
// them: look the thread up (404 when unknown), pick the endpoint file for the method and path
// (lib/standard/thread-endpoint-routes.ts), and run its handler with the thread's ThreadState
// (`execution` null: no step is running). A handler that throws, or answers something that is not
// a Response, is logged here with the reason and reported as `failed` (the route answers a bare 500).
// A handler that has not answered within the time limit (TANDEM_ENDPOINT_TIMEOUT_MS) is reported as
// `timed_out` (504); it runs in this process and cannot be killed, so what it still does is ignored.
import path from "node:path";
import type { SqlClient } from "@/lib/db/sql-client";
import { type EndpointMethod, matchEndpoint } from "@/lib/standard/thread-endpoint-routes";
import { loadThreadState } from "../engine/thread-state";
import { NotFoundError, TandemError } from "../errors";
import type { HookRunner } from "../extensions/hook-runner";
import type { ExtensionRegistry } from "../extensions/registry";
import type { DefinitionsCache } from "../store/definitions";
import { isUuid } from "./project-service";

export interface ThreadEndpointServices {
  db: SqlClient;
  definitions: DefinitionsCache;
  /** This process's extensions, loaded once (the same loader the step runner uses). */
  extensions: () => Promise<{ registry: ExtensionRegistry; hooks: HookRunner }>;
  terminate: (threadId: string) => Promise<void>;
  /** How long a handler may take to answer its Response (0: no limit). Default 30 s. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** A thread endpoint's time limit when TANDEM_ENDPOINT_TIMEOUT_MS is not set. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 30_000;

/** TANDEM_ENDPOINT_TIMEOUT_MS, or the default; 0 turns the limit off. */
export function endpointTimeoutMsFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.TANDEM_ENDPOINT_TIMEOUT_MS?.trim();
  const value = raw ? Number(raw) : DEFAULT_ENDPOINT_TIMEOUT_MS;
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_ENDPOINT_TIMEOUT_MS;
}

export type ThreadEndpointOutcome =
  | { kind: "response"; response: Response }
  /** The path exists with other methods only. */
  | { kind: "method_not_allowed"; allow: EndpointMethod[]; message: string }
  /** The handler threw or answered something else than a Response (logged). */
  | { kind: "failed" }
  /** The handler had not answered within the time limit (logged). */
  | { kind: "timed_out"; timeoutMs: number; message: string };

function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  // A Response from another realm (e.g. a module that bundles its own fetch) still works for Next.
  const candidate = value as Partial<Response> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.status === "number" &&
    candidate.headers instanceof Headers &&
    typeof candidate.arrayBuffer === "function"
  );
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no prototype"})`;
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}

const TIMED_OUT = Symbol("timed out");

/** The promise's value, or a rejection with TIMED_OUT once `timeoutMs` passed (0: no limit). */
async function withinTimeLimit<T>(running: Promise<T>, timeoutMs: number): Promise<T> {
  if (timeoutMs <= 0) return running;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(TIMED_OUT), timeoutMs);
  });
  try {
    return await Promise.race([running, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export class ThreadEndpointService {
  private readonly log: (message: string) => void;

  constructor(private readonly services: ThreadEndpointServices) {
    this.log = services.log ?? ((message) => console.error(`[tandem] ${message}`));
  }

  /**
   * Answers `request` on the thread's endpoint at `segments` (the percent-decoded path after
   * `/endpoints`). Throws a 404 error for an unknown thread or path.
   */
  async handle(
    threadId: string,
    segments: readonly string[],
    request: Request,
  ): Promise<ThreadEndpointOutcome> {
    if (!isUuid(threadId)) throw new NotFoundError("Thread", threadId);
    const { registry, hooks } = await this.services.extensions();
    const { db, definitions, terminate } = this.services;
    const state = await loadThreadState({ db, definitions, hooks, terminate }, threadId);
    if (!state) throw new NotFoundError("Thread", threadId);
    const shown = `/${segments.join("/")}`;
    const match = matchEndpoint(registry.threadEndpoints, request.method, segments);
    if (match.kind === "not_found")
      throw new TandemError(
        "not_found",
        "endpoint_not_found",
        `No thread endpoint answers ${shown}: this server has no file for it in its extensions' threads/ folder.`,
        { path: shown },
      );
    if (match.kind === "method_not_allowed")
      return {
        kind: "method_not_allowed",
        allow: match.allow,
        message: `The thread endpoint ${shown} does not answer ${request.method}; it answers ${match.allow.join(", ")}.`,
      };
    const { route, params } = match;
    const where = `thread endpoint ${route.method} ${route.pattern} (${path.relative(process.cwd(), route.file)}) on thread ${threadId}`;
    const timeoutMs = this.services.timeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    let answer: unknown;
    try {
      answer = await withinTimeLimit(
        Promise.resolve().then(() => route.execute(request, state, params)),
        timeoutMs,
      );
    } catch (error) {
      if (error === TIMED_OUT) {
        this.log(`${where} timed out after ${timeoutMs} ms (TANDEM_ENDPOINT_TIMEOUT_MS)`);
        return {
          kind: "timed_out",
          timeoutMs,
          message: `The thread endpoint ${shown} did not answer within ${timeoutMs} ms.`,
        };
      }
      this.log(`${where} failed: ${error instanceof Error ? error.message : String(error)}`);
      return { kind: "failed" };
    }
    if (!isResponse(answer)) {
      this.log(`${where} failed: the handler must return a Response, but returned ${kindOf(answer)}`);
      return { kind: "failed" };
    }
    return { kind: "response", response: answer };
  }
}
