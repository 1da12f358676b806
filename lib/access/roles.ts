// What each project role may do, as the studio shows it (API.md "Accounts, roles, keys, credentials,
// audit"): one ordered ladder viewer < runner < editor < owner, each step adding to the one below.
// The server's policy table (policy.ts) decides; this reads it so the UI can hide or disable what
// would answer 403 and say why before the user tries.
import type { KeyScope, ProjectRole } from "@/lib/contracts/access";
import { policyFor, roleAtLeast } from "./policy";

export { KEY_SCOPES, type KeyScope, PROJECT_ROLES, type ProjectRole } from "@/lib/contracts/access";

/**
 * The things a user does in the UI that a role may not, each with the route it calls: the role it
 * needs is read from the policy table, so the UI and the server cannot disagree.
 */
const ACTION_ROUTES = {
  read: ["GET", "/api/projects/[id]"],
  run: ["POST", "/api/threads"],
  save: ["PUT", "/api/projects/[id]/graph"],
  manage: ["PUT", "/api/projects/[id]/members/[userId]"],
  listKeys: ["GET", "/api/projects/[id]/keys"],
  listCredentials: ["GET", "/api/projects/[id]/credentials"],
  readAudit: ["GET", "/api/projects/[id]/audit"],
} as const satisfies Record<string, readonly [string, string]>;
export type ProjectAction = keyof typeof ACTION_ROUTES;

/** The least role that may do `action` (the policy table's entry for its route). */
export function neededRole(action: ProjectAction): ProjectRole {
  const [method, pattern] = ACTION_ROUTES[action];
  const entry = policyFor(method, pattern);
  if (entry?.access.kind !== "project") throw new Error(`No project policy for ${method} ${pattern}.`);
  return entry.access.role;
}

/** One sentence per role: what it adds, for the members page. */
export const ROLE_DESCRIPTIONS: Record<ProjectRole, string> = {
  viewer: "Reads the project, its threads, events, evals and analytics.",
  runner: "Also starts and messages threads, stops them and answers approvals.",
  editor: "Also saves definitions and versions, imports, and edits eval suites.",
  owner: "Also manages members, API keys and credentials, and may delete the project.",
};

export const SCOPE_DESCRIPTIONS: Record<KeyScope, string> = {
  read: "Read the project and its threads (like a viewer).",
  run: "Start, message and stop threads, answer approvals (like a runner).",
  design: "Save definitions, versions and imports (like an editor).",
  mcp: "Call the project's agents through its MCP endpoint.",
};

const VERB: Record<ProjectAction, string> = {
  read: "read this project",
  run: "run agents",
  save: "save changes",
  manage: "manage members, keys and credentials",
  listKeys: "see the project's API keys",
  listCredentials: "see the project's credentials",
  readAudit: "read the audit log",
};

/**
 * Who is looking at a project: `null` role means no accounts (the local default) or an admin, who
 * may do everything.
 */
export interface ProjectAccess {
  role: ProjectRole | null;
}

export const FULL_ACCESS: ProjectAccess = { role: null };

/** Whether `access` may do `action`, and if not a sentence saying why (a tooltip). */
export function allows(
  access: ProjectAccess,
  action: ProjectAction,
): { ok: true } | { ok: false; reason: string } {
  if (access.role === null) return { ok: true };
  const needed = neededRole(action);
  if (roleAtLeast(access.role, needed)) return { ok: true };
  return {
    ok: false,
    reason: `Your role in this project is ${access.role}: only ${needed === "owner" ? "an owner" : `an ${needed} or above`} may ${VERB[action]}. Ask a project owner to change your role.`,
  };
}
