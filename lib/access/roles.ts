// What each project role may do, as the studio shows it (API.md "Accounts, roles, keys, credentials,
// audit"): one ordered ladder viewer < runner < editor < owner, each step adding to the one below.
// The server's policy table (policy.ts) decides; this reads it so the UI can hide or disable what
// would answer 403 and say why before the user tries.
import type { KeyScope, ProjectRole } from "@/lib/contracts/access";
import { policyFor, roleAtLeast } from "./policy";

export { KEY_SCOPES, type KeyScope, PROJECT_ROLES, type ProjectRole } from "@/lib/contracts/access";

/**
 * The things a user does in the UI that a role may not, each with the route it calls and how the
 * refusal reads ("Viewers can't <verb>"): the role it needs is read from the policy table, so the UI
 * and the server cannot disagree (roles.test.ts checks each route has a row).
 */
const ACTIONS = {
  read: { route: ["GET", "/api/projects/[id]"], verb: "read this project" },
  run: { route: ["POST", "/api/threads"], verb: "start runs" },
  message: { route: ["POST", "/api/threads/[id]/messages"], verb: "send messages" },
  stop: { route: ["POST", "/api/threads/[id]/stop"], verb: "stop threads" },
  terminate: { route: ["POST", "/api/threads/[id]/terminate"], verb: "terminate threads" },
  approve: { route: ["POST", "/api/approvals/[approvalId]"], verb: "approve or deny tool calls" },
  fork: { route: ["POST", "/api/threads/[id]/fork"], verb: "fork threads" },
  replay: { route: ["POST", "/api/threads/[id]/replay"], verb: "replay threads" },
  replayBatch: { route: ["POST", "/api/projects/[id]/replays"], verb: "start replay batches" },
  cancelEffect: {
    route: ["DELETE", "/api/threads/[id]/effects/[effectId]"],
    verb: "cancel scheduled effects",
  },
  writeFiles: { route: ["PUT", "/api/threads/[id]/fs/[...path]"], verb: "change a thread's files" },
  save: { route: ["PUT", "/api/projects/[id]/graph"], verb: "save changes" },
  import: { route: ["POST", "/api/projects/[id]/import"], verb: "import definitions" },
  restore: { route: ["POST", "/api/projects/[id]/versions/[version]/restore"], verb: "restore versions" },
  rename: { route: ["PATCH", "/api/projects/[id]"], verb: "rename the project" },
  deleteProject: { route: ["DELETE", "/api/projects/[id]"], verb: "delete the project" },
  editSuites: { route: ["POST", "/api/projects/[id]/evals"], verb: "create or edit eval suites" },
  addToSuite: {
    route: ["POST", "/api/projects/[id]/evals/[suiteId]/cases/from-thread"],
    verb: "add threads to eval suites",
  },
  runEval: { route: ["POST", "/api/projects/[id]/evals/[suiteId]/runs"], verb: "run eval suites" },
  cancelEval: { route: ["POST", "/api/eval-runs/[runId]/cancel"], verb: "cancel eval runs" },
  manage: { route: ["PUT", "/api/projects/[id]/members/[userId]"], verb: "manage members" },
  listKeys: { route: ["GET", "/api/projects/[id]/keys"], verb: "see the project's API keys" },
  manageKeys: { route: ["POST", "/api/projects/[id]/keys"], verb: "create or revoke API keys" },
  listCredentials: {
    route: ["GET", "/api/projects/[id]/credentials"],
    verb: "see the project's credentials",
  },
  manageCredentials: {
    route: ["PUT", "/api/projects/[id]/credentials/[name]"],
    verb: "add, replace or delete credentials",
  },
  readAudit: { route: ["GET", "/api/projects/[id]/audit"], verb: "read the audit log" },
} as const satisfies Record<string, { route: readonly [string, string]; verb: string }>;
export type ProjectAction = keyof typeof ACTIONS;
export const PROJECT_ACTIONS = Object.keys(ACTIONS) as ProjectAction[];

/** The least role that may do `action` (the policy table's entry for its route). */
export function neededRole(action: ProjectAction): ProjectRole {
  const [method, pattern] = ACTIONS[action].route;
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

const PLURAL: Record<ProjectRole, string> = {
  viewer: "Viewers",
  runner: "Runners",
  editor: "Editors",
  owner: "Owners",
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
    reason: `${PLURAL[access.role]} can't ${ACTIONS[action].verb} — ask a project owner for the ${needed} role.`,
  };
}
