// Filters of the audit page over the entries `GET /api/projects/:id/audit` answers: by action, by
// actor and by a time window ending now. Pure, so the page and its tests agree.
import { type AuditEntry, whenToDate } from "@/lib/api/access-schemas";

export const AUDIT_WINDOWS = {
  all: { label: "Any time", ms: null },
  hour: { label: "Last hour", ms: 3_600_000 },
  day: { label: "Last 24 hours", ms: 86_400_000 },
  week: { label: "Last 7 days", ms: 7 * 86_400_000 },
  month: { label: "Last 30 days", ms: 30 * 86_400_000 },
} as const;
export type AuditWindow = keyof typeof AUDIT_WINDOWS;

export interface AuditFilter {
  /** An exact action, or "" for any. */
  action: string;
  /** `${type}:${id}` of an actor, or "" for any. */
  actor: string;
  window: AuditWindow;
}

export const NO_AUDIT_FILTER: AuditFilter = { action: "", actor: "", window: "all" };

export function actorKey(entry: AuditEntry): string {
  return entry.actor ? `${entry.actor.type}:${entry.actor.id ?? entry.actor.name ?? ""}` : "system";
}

export function actorLabel(entry: AuditEntry): string {
  if (!entry.actor) return "system";
  const name = entry.actor.name || entry.actor.id || "unknown";
  return entry.actor.type === "key" ? `key ${name}` : name;
}

export function filterAudit(entries: AuditEntry[], filter: AuditFilter, now: number): AuditEntry[] {
  const windowMs = AUDIT_WINDOWS[filter.window].ms;
  return entries.filter((entry) => {
    if (filter.action && entry.action !== filter.action) return false;
    if (filter.actor && actorKey(entry) !== filter.actor) return false;
    if (windowMs !== null) {
      const at = whenToDate(entry.at);
      if (!at || at.getTime() < now - windowMs) return false;
    }
    return true;
  });
}

/** The choices of the action and actor filters: every value present, sorted. */
export function auditFacets(entries: AuditEntry[]): {
  actions: string[];
  actors: { key: string; label: string }[];
} {
  const actions = [...new Set(entries.map((entry) => entry.action))].sort();
  const actors = new Map<string, string>();
  for (const entry of entries) actors.set(actorKey(entry), actorLabel(entry));
  return {
    actions,
    actors: [...actors]
      .map(([key, label]) => ({ key, label }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  };
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
