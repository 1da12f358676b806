// The audit entry of a successful request whose policy row names an action (lib/access/policy.ts):
// who, which project, what it acted on and the few details that matter — never a secret (a
// credential's value, a key's secret, a password). Read from the route's params and its JSON answer.
import type { PolicyMatch } from "@/lib/access/policy";
import type { Principal, Runtime } from "@/runtime/runtime";

type Json = Record<string, unknown>;

const record = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};

async function answerOf(response: Response): Promise<Json> {
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return {};
  try {
    return record(await response.clone().json());
  } catch {
    return {};
  }
}

function auditDetails(
  action: string,
  params: Record<string, string>,
  answer: Json,
): { target: string | null; details: Json } {
  switch (action) {
    case "version.save":
    case "version.restore":
    case "project.import":
      return {
        target: params.id ?? null,
        details: {
          version: answer.version ?? record(answer.project).current_version ?? null,
          ...(params.version ? { from: Number(params.version) } : {}),
        },
      };
    case "project.create":
    case "project.rename":
      return { target: String(answer.id ?? params.id ?? ""), details: { name: answer.name ?? null } };
    case "project.delete":
      return { target: params.id ?? null, details: {} };
    case "thread.start": {
      const thread = record(answer.thread);
      return {
        target: String(answer.threadId ?? thread.id ?? ""),
        details: { agent: answer.agent_id ?? thread.agent_id ?? null },
      };
    }
    case "approval.decide": {
      const approval = record(answer.approval);
      return {
        target: params.approvalId ?? null,
        details: {
          decision: approval.state ?? null,
          tool: approval.tool_name ?? null,
          thread_id: approval.thread_id ?? null,
          ...(approval.decided_args !== undefined ? { args: approval.decided_args } : {}),
          ...(approval.reason ? { reason: approval.reason } : {}),
        },
      };
    }
    case "member.set": {
      const members = Array.isArray(answer.members) ? answer.members.map(record) : [];
      const member = members.find((entry) => entry.user_id === params.userId);
      return {
        target: params.userId ?? null,
        details: { role: member?.role ?? null, email: member?.email ?? null },
      };
    }
    case "member.remove":
      return { target: params.userId ?? null, details: {} };
    case "key.create": {
      const key = record(answer.key);
      return { target: String(key.id ?? ""), details: { name: key.name ?? null, scopes: key.scopes ?? [] } };
    }
    case "key.revoke":
      return { target: params.keyId ?? null, details: { name: record(answer.key).name ?? null } };
    case "credential.set":
    case "credential.delete":
      return { target: params.name ?? null, details: {} };
    case "user.create": {
      const user = record(answer.user);
      return {
        target: String(user.id ?? ""),
        details: { email: user.email ?? null, admin: user.admin ?? false },
      };
    }
    default:
      return { target: params.id ?? params.effectId ?? null, details: {} };
  }
}

async function projectOf(runtime: Runtime, match: PolicyMatch, answer: Json, known: string | undefined) {
  if (known) return known;
  const access = match.entry.access;
  if (access.kind === "project") {
    const source = access.project;
    if (source.from === "param") return match.params[source.param] ?? null;
    if (source.from === "thread") return runtime.access.threadProject(match.params[source.param] ?? "");
    if (source.from === "approval") return runtime.access.approvalProject(match.params[source.param] ?? "");
    if (source.from === "eval_run") return runtime.access.evalRunProject(match.params[source.param] ?? "");
  }
  const thread = record(answer.thread);
  if (typeof thread.project_id === "string") return thread.project_id;
  if (match.entry.audit === "project.create" && typeof answer.id === "string") return answer.id;
  return null;
}

/** Writes the entry; a failure is logged, never turned into a failed request (the change is made). */
export async function writeAudit(
  runtime: Runtime,
  principal: Principal,
  action: string,
  match: PolicyMatch,
  projectId: string | undefined,
  response: Response,
): Promise<void> {
  try {
    const answer = await answerOf(response);
    const { target, details } = auditDetails(action, match.params, answer);
    await runtime.access.recordAudit(principal, {
      projectId: await projectOf(runtime, match, answer, projectId),
      action,
      target: target || null,
      details,
    });
  } catch (error) {
    console.error(
      `[tandem] writing the audit entry ${action} failed:`,
      error instanceof Error ? error.message : error,
    );
  }
}
