// What each project role may do, as the studio shows it (API.md "Accounts, roles, keys, credentials,
// audit"): one ordered ladder viewer < runner < editor < owner, each step adding to the one below.
// The server's policy table decides; this only lets the UI hide or disable what would answer 403 and
// say why before the user tries.

export const PROJECT_ROLES = ["viewer", "runner", "editor", "owner"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const KEY_SCOPES = ["read", "run", "design", "mcp"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The things a user does in the UI that a role may not: each maps to the lowest role allowed. */
export const PROJECT_ACTIONS = {
  read: "viewer",
  run: "runner",
  save: "editor",
  manage: "owner",
} as const satisfies Record<string, ProjectRole>;
export type ProjectAction = keyof typeof PROJECT_ACTIONS;

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
};

/**
 * Who is looking at a project: `null` role means no accounts (the local default) or an admin, who
 * may do everything.
 */
export interface ProjectAccess {
  role: ProjectRole | null;
}

export const FULL_ACCESS: ProjectAccess = { role: null };

export function roleRank(role: ProjectRole): number {
  return PROJECT_ROLES.indexOf(role);
}

/** Whether `access` may do `action`, and if not a sentence saying why (a tooltip). */
export function allows(
  access: ProjectAccess,
  action: ProjectAction,
): { ok: true } | { ok: false; reason: string } {
  if (access.role === null) return { ok: true };
  const needed = PROJECT_ACTIONS[action];
  if (roleRank(access.role) >= roleRank(needed)) return { ok: true };
  return {
    ok: false,
    reason: `Your role in this project is ${access.role}: only ${needed === "owner" ? "an owner" : `an ${needed} or above`} may ${VERB[action]}. Ask a project owner to change your role.`,
  };
}
