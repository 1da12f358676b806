// THE policy table: who may call each route of app/ once accounts exist (docs/security.md). Every
// route file and method has exactly one entry (test/api/access-matrix.integration.test.ts walks
// app/**/route.ts and fails on a route missing here), and `handle()` (app/api/_lib/http.ts) refuses a
// request whose route has no entry, so a new route cannot ship unguarded. Pure data and pure
// functions: the server enforces it, the studio reads it to hide what a role cannot do.
import type { KeyScope, ProjectRole } from "@/lib/contracts/access";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Where a route's project comes from. */
export type ProjectSource =
  /** The `[id]` segment is the project id. */
  | { from: "param"; param: string }
  /** The segment is a thread id; the project is the thread's. */
  | { from: "thread"; param: string }
  /** The segment is a tool approval's id; the project is its thread's. */
  | { from: "approval"; param: string }
  /** A query parameter holds the project id. */
  | { from: "query"; name: string }
  /** The segment is an eval run's id; the project is its suite's. */
  | { from: "eval_run"; param: string }
  /** Query parameters name eval runs (each must be allowed). */
  | { from: "query-eval-runs"; names: string[] }
  /** A query parameter lists thread ids (each must be allowed). */
  | { from: "query-threads"; names: string[] }
  /** The JSON body's field holds the project id. */
  | { from: "body"; field: string };

export type Access =
  /** Anyone (liveness, and the ways in and out). */
  | { kind: "public" }
  /** Any signed-in user, API-token holder or project key. */
  | { kind: "signed_in" }
  /** A signed-in user or the API token, not a project key. */
  | { kind: "user" }
  /** An admin (or the API token). */
  | { kind: "admin" }
  /** A role on the route's project (admins and the API token always); keys by scope. */
  | { kind: "project"; project: ProjectSource; role: ProjectRole; mcp?: true };

export interface PolicyEntry {
  method: HttpMethod;
  /** The route's folder under app/, with its `[segments]`: `/api/projects/[id]/members`. */
  pattern: string;
  access: Access;
  /** The audit action written when the request succeeds (docs/security.md "Audit"). */
  audit?: string;
}

const PUBLIC: Access = { kind: "public" };
const SIGNED_IN: Access = { kind: "signed_in" };
const project = (role: ProjectRole, param = "id"): Access => ({
  kind: "project",
  project: { from: "param", param },
  role,
});
const thread = (role: ProjectRole, param = "id"): Access => ({
  kind: "project",
  project: { from: "thread", param },
  role,
});

const evalRun = (role: ProjectRole, param = "runId"): Access => ({
  kind: "project",
  project: { from: "eval_run", param },
  role,
});

type Row = [HttpMethod | HttpMethod[], string, Access, string?];

const ALL_METHODS: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

const ROWS: Row[] = [
  // Open: liveness and the ways in and out.
  ["GET", "/api/health", PUBLIC],
  ["POST", "/api/auth/login", PUBLIC],
  ["POST", "/api/auth/logout", PUBLIC],
  ["POST", "/api/auth/setup", PUBLIC],
  ["GET", "/api/auth/session", PUBLIC],
  ["GET", "/api/auth/oidc/start", PUBLIC],
  ["GET", "/api/auth/oidc/callback", PUBLIC],
  // Server-wide.
  [ALL_METHODS, "/api/malformed-url", SIGNED_IN],
  ["GET", "/api/providers", SIGNED_IN],
  ["GET", "/api/mcp/tools", SIGNED_IN],
  ["GET", "/api/users", { kind: "user" }],
  ["POST", "/api/users", { kind: "admin" }, "user.create"],
  // Projects: the listing shows only the caller's projects; the creator becomes the owner.
  ["GET", "/api/projects", SIGNED_IN],
  ["POST", "/api/projects", { kind: "user" }, "project.create"],
  ["GET", "/api/projects/[id]", project("viewer")],
  ["PATCH", "/api/projects/[id]", project("editor"), "project.rename"],
  ["DELETE", "/api/projects/[id]", project("owner"), "project.delete"],
  ["GET", "/api/projects/[id]/activity", project("viewer")],
  ["GET", "/api/projects/[id]/analytics", project("viewer")],
  // Evaluations: viewers read suites and runs; editors change suites; runners start and cancel runs.
  ["GET", "/api/projects/[id]/evals", project("viewer")],
  ["POST", "/api/projects/[id]/evals", project("editor"), "eval_suite.create"],
  ["GET", "/api/projects/[id]/evals/[suiteId]", project("viewer")],
  ["PUT", "/api/projects/[id]/evals/[suiteId]", project("editor"), "eval_suite.update"],
  ["DELETE", "/api/projects/[id]/evals/[suiteId]", project("editor"), "eval_suite.delete"],
  ["POST", "/api/projects/[id]/evals/[suiteId]/cases/from-thread", project("editor"), "eval_suite.update"],
  ["GET", "/api/projects/[id]/evals/[suiteId]/runs", project("viewer")],
  ["POST", "/api/projects/[id]/evals/[suiteId]/runs", project("runner"), "eval_run.start"],
  ["GET", "/api/eval-runs/[runId]", evalRun("viewer")],
  ["GET", "/api/eval-runs/[runId]/events", evalRun("viewer")],
  ["POST", "/api/eval-runs/[runId]/cancel", evalRun("runner"), "eval_run.cancel"],
  [
    "GET",
    "/api/eval-runs/compare",
    { kind: "project", project: { from: "query-eval-runs", names: ["a", "b"] }, role: "viewer" },
  ],
  ["PUT", "/api/projects/[id]/definitions", project("editor"), "version.save"],
  ["GET", "/api/projects/[id]/export", project("viewer")],
  ["PUT", "/api/projects/[id]/graph", project("editor"), "version.save"],
  ["POST", "/api/projects/[id]/import", project("editor"), "project.import"],
  [
    ["GET", "POST", "DELETE"],
    "/api/projects/[id]/mcp",
    { kind: "project", project: { from: "param", param: "id" }, role: "runner", mcp: true },
  ],
  ["GET", "/api/projects/[id]/replays", project("viewer")],
  ["POST", "/api/projects/[id]/replays", project("runner"), "replay.start"],
  ["GET", "/api/projects/[id]/versions", project("viewer")],
  ["GET", "/api/projects/[id]/versions/[version]", project("viewer")],
  ["GET", "/api/projects/[id]/versions/[version]/diff", project("viewer")],
  ["POST", "/api/projects/[id]/versions/[version]/restore", project("editor"), "version.restore"],
  ["GET", "/api/projects/[id]/members", project("viewer")],
  ["PUT", "/api/projects/[id]/members/[userId]", project("owner"), "member.set"],
  ["DELETE", "/api/projects/[id]/members/[userId]", project("owner"), "member.remove"],
  ["GET", "/api/projects/[id]/keys", project("owner")],
  ["POST", "/api/projects/[id]/keys", project("owner"), "key.create"],
  ["DELETE", "/api/projects/[id]/keys/[keyId]", project("owner"), "key.revoke"],
  ["GET", "/api/projects/[id]/credentials", project("editor")],
  ["PUT", "/api/projects/[id]/credentials/[name]", project("owner"), "credential.set"],
  ["DELETE", "/api/projects/[id]/credentials/[name]", project("owner"), "credential.delete"],
  ["GET", "/api/projects/[id]/audit", project("owner")],
  // Threads (their project is the thread's).
  // Without project_id a user is asked for one (a key gets its own project's): app/api/threads/route.ts.
  [
    "GET",
    "/api/threads",
    { kind: "project", project: { from: "query", name: "project_id" }, role: "viewer" },
  ],
  [
    "POST",
    "/api/threads",
    { kind: "project", project: { from: "body", field: "project_id" }, role: "runner" },
    "thread.start",
  ],
  [
    "GET",
    "/api/threads/diff",
    { kind: "project", project: { from: "query-threads", names: ["a", "b"] }, role: "viewer" },
  ],
  ["GET", "/api/threads/[id]", thread("viewer")],
  ["GET", "/api/threads/[id]/approvals", thread("viewer")],
  ["GET", "/api/threads/[id]/effects", thread("viewer")],
  ["DELETE", "/api/threads/[id]/effects/[effectId]", thread("runner"), "effect.cancel"],
  [ALL_METHODS, "/api/threads/[id]/endpoints/[[...path]]", thread("runner")],
  ["GET", "/api/threads/[id]/events", thread("viewer")],
  ["POST", "/api/threads/[id]/fork", thread("runner"), "thread.fork"],
  ["GET", "/api/threads/[id]/fs", thread("viewer")],
  ["GET", "/api/threads/[id]/fs/[...path]", thread("viewer")],
  ["PUT", "/api/threads/[id]/fs/[...path]", thread("runner"), "file.write"],
  ["DELETE", "/api/threads/[id]/fs/[...path]", thread("runner"), "file.delete"],
  ["GET", "/api/threads/[id]/logs", thread("viewer")],
  ["GET", "/api/threads/[id]/messages", thread("viewer")],
  ["POST", "/api/threads/[id]/messages", thread("runner")],
  ["GET", "/api/threads/[id]/replay", thread("viewer")],
  ["POST", "/api/threads/[id]/replay", thread("runner"), "thread.replay"],
  ["POST", "/api/threads/[id]/stop", thread("runner"), "thread.stop"],
  ["GET", "/api/threads/[id]/subagents", thread("viewer")],
  ["POST", "/api/threads/[id]/terminate", thread("runner"), "thread.terminate"],
  ["GET", "/api/threads/[id]/tree", thread("viewer")],
  ["GET", "/api/threads/[id]/variables/[requestId]", thread("viewer")],
  ["POST", "/api/threads/[id]/variables/[requestId]", thread("runner")],
  ["GET", "/threads/[id]/variables/[requestId]", thread("viewer")],
  ["POST", "/threads/[id]/variables/[requestId]", thread("runner")],
  // Approvals.
  [
    "GET",
    "/api/approvals",
    { kind: "project", project: { from: "query", name: "project_id" }, role: "viewer" },
  ],
  [
    "POST",
    "/api/approvals/[approvalId]",
    { kind: "project", project: { from: "approval", param: "approvalId" }, role: "runner" },
    "approval.decide",
  ],
];

export const POLICY: readonly PolicyEntry[] = ROWS.flatMap(([methods, pattern, access, audit]) =>
  (Array.isArray(methods) ? methods : [methods]).map((method) => ({
    method,
    pattern,
    access,
    ...(audit ? { audit } : {}),
  })),
);

/** How much each role may do: a role may do everything a lower one may. */
export const ROLE_RANK: Record<ProjectRole, number> = { viewer: 1, runner: 2, editor: 3, owner: 4 };

export function roleAtLeast(role: ProjectRole | null | undefined, needed: ProjectRole): boolean {
  return role != null && ROLE_RANK[role] >= ROLE_RANK[needed];
}

/** What each key scope stands for (`mcp` is the project's MCP endpoint only). */
export const SCOPE_ROLE: Record<Exclude<KeyScope, "mcp">, ProjectRole> = {
  read: "viewer",
  run: "runner",
  design: "editor",
};

/** Whether a key with these scopes may do what `access` asks on its own project. */
export function scopesAllow(scopes: readonly KeyScope[], access: Extract<Access, { kind: "project" }>) {
  if (access.mcp) return scopes.includes("mcp");
  return scopes.some((scope) => scope !== "mcp" && roleAtLeast(SCOPE_ROLE[scope], access.role));
}

interface CompiledEntry {
  entry: PolicyEntry;
  regex: RegExp;
  names: string[];
}

function compile(entry: PolicyEntry): CompiledEntry {
  const names: string[] = [];
  let source = "";
  for (const segment of entry.pattern.split("/").slice(1)) {
    const optionalCatchAll = /^\[\[\.\.\.(\w+)\]\]$/.exec(segment);
    const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
    const dynamic = /^\[(\w+)\]$/.exec(segment);
    if (optionalCatchAll?.[1]) {
      names.push(optionalCatchAll[1]);
      source += "(?:/(.*))?";
    } else if (catchAll?.[1]) {
      names.push(catchAll[1]);
      source += "/(.+)";
    } else if (dynamic?.[1]) {
      names.push(dynamic[1]);
      source += "/([^/]+)";
    } else {
      source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    }
  }
  return { entry, regex: new RegExp(`^${source}/?$`), names };
}

const COMPILED = POLICY.map(compile);
/** Static patterns before dynamic ones, as Next resolves them (`/api/threads/diff` before `[id]`). */
const SPECIFICITY = (pattern: string) => pattern.split("/").filter((part) => part.startsWith("[")).length;
COMPILED.sort((a, b) => SPECIFICITY(a.entry.pattern) - SPECIFICITY(b.entry.pattern));

export interface PolicyMatch {
  entry: PolicyEntry;
  params: Record<string, string>;
}

/** The entry for a request (its pathname as sent), or null when no route of the table matches it. */
export function findPolicy(method: string, pathname: string): PolicyMatch | null {
  const upper = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  for (const compiled of COMPILED) {
    if (compiled.entry.method !== upper) continue;
    const match = compiled.regex.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    compiled.names.forEach((name, index) => {
      const raw = match[index + 1];
      if (raw === undefined) return;
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    });
    return { entry: compiled.entry, params };
  }
  return null;
}

/** The entry for a route file's pattern and method (the route × role test). */
export function policyFor(method: string, pattern: string): PolicyEntry | undefined {
  return POLICY.find((entry) => entry.method === method && entry.pattern === pattern);
}
