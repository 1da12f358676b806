// The audit page's filters, turned into the query of `GET /api/projects/:id/audit` (the server
// filters: action, actor, from, to, and the `before` cursor of the next page), and the labels of
// its entries. Pure, so the page and its tests agree. The action choices are the policy table's
// audit actions (policy.ts), the only ones ever written for a project.
import { POLICY } from "./policy";

export const AUDIT_WINDOWS = {
  all: { label: "Any time", ms: null },
  hour: { label: "Last hour", ms: 3_600_000 },
  day: { label: "Last 24 hours", ms: 86_400_000 },
  week: { label: "Last 7 days", ms: 7 * 86_400_000 },
  month: { label: "Last 30 days", ms: 30 * 86_400_000 },
  custom: { label: "Between…", ms: null },
} as const;
export type AuditWindow = keyof typeof AUDIT_WINDOWS;

export interface AuditFilter {
  /** An exact action, a family ("thread"), or "" for any. */
  action: string;
  /** The id of a user or key, or "" for anyone. */
  actor: string;
  window: AuditWindow;
  /** With the "custom" window: `<input type="datetime-local">` values (local time), "" for open. */
  from: string;
  to: string;
}

export const NO_AUDIT_FILTER: AuditFilter = { action: "", actor: "", window: "all", from: "", to: "" };

export function isFiltered(filter: AuditFilter): boolean {
  return (
    filter.action !== "" ||
    filter.actor !== "" ||
    (filter.window !== "all" && (filter.window !== "custom" || filter.from !== "" || filter.to !== ""))
  );
}

/** Every action the policy table writes for a project, sorted, and their families (`thread`). */
export const AUDIT_ACTIONS: readonly string[] = [
  ...new Set(POLICY.flatMap((entry) => (entry.audit ? [entry.audit] : []))),
]
  .filter((action) => action !== "user.create")
  .sort();
export const AUDIT_FAMILIES: readonly string[] = [
  ...new Set(AUDIT_ACTIONS.map((action) => action.split(".")[0] ?? action)),
].sort();

/** A datetime-local value as epoch ms (local time), or null when empty or unreadable. */
function localTimeMs(value: string): number | null {
  if (value === "") return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** Why a custom range cannot be asked for, or null. */
export function rangeProblem(filter: AuditFilter): string | null {
  if (filter.window !== "custom") return null;
  const from = localTimeMs(filter.from);
  const to = localTimeMs(filter.to);
  if (from !== null && to !== null && from > to) return "“To” is before “From”.";
  return null;
}

/** The query string of the audit route for these filters (and the next page's cursor). */
export function auditQuery(
  filter: AuditFilter,
  options: { now: number; limit: number; before?: string | null },
): URLSearchParams {
  const query = new URLSearchParams({ limit: String(options.limit) });
  if (filter.action) query.set("action", filter.action);
  if (filter.actor) query.set("actor", filter.actor);
  const windowMs = AUDIT_WINDOWS[filter.window].ms;
  if (windowMs !== null) query.set("from", String(options.now - windowMs));
  if (filter.window === "custom") {
    const from = localTimeMs(filter.from);
    const to = localTimeMs(filter.to);
    if (from !== null) query.set("from", String(from));
    // A minute-precision "to" keeps that whole minute.
    if (to !== null) query.set("to", String(to + 59_999));
  }
  if (options.before) query.set("before", options.before);
  return query;
}

/** Who wrote an audit entry, as the page reads it (lib/api/access-schemas parses the response). */
export interface AuditEntryActor {
  type: "user" | "key";
  id: string | null;
  name?: string | null;
}

export function actorLabel(entry: {
  readonly actor: AuditEntryActor | null;
  readonly [field: string]: unknown;
}): string {
  if (!entry.actor) return "system";
  const name = entry.actor.name || entry.actor.id || "unknown";
  return entry.actor.type === "key" ? `key ${name}` : name;
}

/** A short line for an entry's target and details (objects as `key: value` pairs). */
export function describeAuditValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return String(value);
  if (Array.isArray(value)) return value.map(describeAuditValue).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(
        ([key, inner]) =>
          `${key}: ${typeof inner === "object" && inner !== null ? JSON.stringify(inner) : String(inner)}`,
      )
      .join(" · ");
  }
  return String(value);
}
