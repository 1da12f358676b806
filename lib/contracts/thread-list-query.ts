// The filters of `GET /api/threads` as one zod schema, shared by the route (which parses the query
// string with it) and the threads list (which writes its controls into the page URL with the same
// names, so a reload or a shared link keeps them).
import { z } from "zod";
import { THREAD_STATUSES, type ThreadStatus } from "./thread";

export const MAX_THREAD_SEARCH_LENGTH = 200;

/** `true`/`1` or `false`/`0` (empty reads as false); anything else is refused. */
const booleanFlag = z
  .string()
  .refine((raw) => ["", "true", "false", "1", "0"].includes(raw), {
    error: (issue) => `must be true or false (got "${String(issue.input)}")`,
  })
  .transform((raw) => raw === "true" || raw === "1");

const integer = (min: number, max?: number) =>
  z
    .string()
    .refine(
      (raw) => {
        const value = Number(raw);
        return (
          raw.trim() !== "" && Number.isInteger(value) && value >= min && (max === undefined || value <= max)
        );
      },
      { message: `must be an integer ≥ ${min}${max === undefined ? "" : ` ≤ ${max}`}` },
    )
    .transform(Number);

/** A comma-separated list of statuses (`status=running,queued`); each must be a thread status. */
const statusList = z
  .string()
  .transform((raw) => raw.split(",").map((part) => part.trim()))
  .refine((parts) => parts.every((part) => isThreadStatus(part)), {
    error: (issue) => {
      const unknown = (issue.input as string[]).filter((part) => !isThreadStatus(part));
      return `unknown status ${unknown.map((part) => `"${part}"`).join(", ")}; use a comma-separated list of ${THREAD_STATUSES.join(", ")}`;
    },
  })
  .transform((parts) => [...new Set(parts as ThreadStatus[])]);

export function isThreadStatus(value: string): value is ThreadStatus {
  return (THREAD_STATUSES as readonly string[]).includes(value);
}

export const ThreadListQuerySchema = z.object({
  project_id: z.string().optional(),
  parent_id: z.string().optional(),
  roots_only: booleanFlag.optional(),
  status: statusList.optional(),
  agent_id: z.string().max(200, "must be at most 200 characters").optional(),
  q: z
    .string()
    .max(MAX_THREAD_SEARCH_LENGTH, `must be at most ${MAX_THREAD_SEARCH_LENGTH} characters`)
    .optional(),
  limit: integer(1, 500).optional(),
  offset: integer(0).optional(),
});

export interface ThreadListFilter {
  projectId?: string;
  parentId?: string;
  rootsOnly: boolean;
  statuses: ThreadStatus[];
  agentId?: string;
  search?: string;
  limit: number;
  offset: number;
}

/**
 * Parses a query string into a filter. Empty values are "not given" (a form submits empty fields);
 * every other bad value throws a ZodError naming the parameter (the route answers 400 with it).
 */
export function parseThreadListQuery(params: URLSearchParams): ThreadListFilter {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(ThreadListQuerySchema.shape)) {
    const value = params.get(key);
    if (value !== null && value !== "") raw[key] = value;
  }
  const query = ThreadListQuerySchema.parse(raw);
  const search = query.q?.trim();
  return {
    ...(query.project_id ? { projectId: query.project_id } : {}),
    ...(query.parent_id ? { parentId: query.parent_id } : {}),
    rootsOnly: query.roots_only ?? false,
    statuses: query.status ?? [],
    ...(query.agent_id ? { agentId: query.agent_id } : {}),
    ...(search ? { search } : {}),
    limit: query.limit ?? 50,
    offset: query.offset ?? 0,
  };
}

/** The filters a person sets in the threads list (the project is given by the page). */
export interface ThreadListControls {
  statuses: ThreadStatus[];
  agentId: string;
  rootsOnly: boolean;
  search: string;
}

export const DEFAULT_THREAD_LIST_CONTROLS: ThreadListControls = {
  statuses: [],
  agentId: "",
  rootsOnly: true,
  search: "",
};

/**
 * The controls read back from a page URL. Unknown or bad values fall back to the defaults (a stale
 * link must not break the page). Roots only is on by default, so the URL carries `roots_only=false`
 * only when it is turned off.
 */
export function controlsFromSearchParams(params: URLSearchParams): ThreadListControls {
  const statuses = (params.get("status") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(isThreadStatus);
  const roots = params.get("roots_only");
  return {
    statuses: [...new Set(statuses)],
    agentId: params.get("agent_id") ?? "",
    rootsOnly: !(roots === "false" || roots === "0"),
    search: (params.get("q") ?? "").slice(0, MAX_THREAD_SEARCH_LENGTH),
  };
}

/** The page URL's query for the controls: only what differs from the defaults. */
export function controlsToSearchParams(controls: ThreadListControls): URLSearchParams {
  const params = new URLSearchParams();
  if (controls.statuses.length > 0) params.set("status", controls.statuses.join(","));
  if (controls.agentId) params.set("agent_id", controls.agentId);
  if (!controls.rootsOnly) params.set("roots_only", "false");
  if (controls.search.trim()) params.set("q", controls.search.trim());
  return params;
}

/** The `GET /api/threads` query for the controls of one project's list. */
export function threadListRequestParams(
  projectId: string,
  controls: ThreadListControls,
  page: { limit: number; offset: number },
): URLSearchParams {
  const params = controlsToSearchParams(controls);
  params.set("project_id", projectId);
  params.set("roots_only", controls.rootsOnly ? "true" : "false");
  params.set("limit", String(page.limit));
  params.set("offset", String(page.offset));
  return params;
}
