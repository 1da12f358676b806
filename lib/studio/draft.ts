// The studio's draft of unsaved work, as kept in the browser per project: its record schema, whether a
// stored draft applies to the document the server has now, and how old it reads on screen.
import { z } from "zod";
import { type Graph, GraphSchema } from "@/lib/graph";
import { canonicalJson } from "@/lib/versions/bundle-diff";

export const DRAFT_RECORD_VERSION = 1;

export const DraftRecordSchema = z.object({
  kind: z.literal("tandem/studio-draft"),
  recordVersion: z.literal(DRAFT_RECORD_VERSION),
  projectId: z.string().min(1),
  /** The saved version the document was edited from (null: the project had never been saved). */
  baseVersion: z.number().int().min(1).nullable(),
  /** When the draft was written, in milliseconds since the epoch. */
  savedAt: z.number().finite(),
  document: GraphSchema,
});
export type DraftRecord = z.output<typeof DraftRecordSchema>;

/** The IndexedDB key of a project's draft. */
export const draftKey = (projectId: string) => `tandem:studio-draft:${projectId}`;

export function makeDraft(
  projectId: string,
  document: Graph,
  baseVersion: number | null,
  now: number,
): DraftRecord {
  return {
    kind: "tandem/studio-draft",
    recordVersion: DRAFT_RECORD_VERSION,
    projectId,
    baseVersion,
    savedAt: now,
    document,
  };
}

/** Two documents are the same when their JSON is, whatever the key order (the server stores jsonb). */
export function sameDocument(a: Graph, b: Graph): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

export type DraftDecision =
  /** Nothing stored for this project. */
  | { kind: "none" }
  /** Something is stored but it cannot be used (unreadable, another project, or equal to the server's document): remove it. */
  | { kind: "discard"; reason: "unreadable" | "other-project" | "same-as-saved" }
  /**
   * Restore it as unsaved changes. `staleBase` is the version it was edited from when the server has
   * moved on since (the next save is then a conflict); null when it was edited from the current version.
   */
  | { kind: "restore"; draft: DraftRecord; staleBase: number | null };

/** What to do with the stored value `stored` when the studio opens `server` (document and version). */
export function decideDraft(
  stored: unknown,
  projectId: string,
  server: { document: Graph; version: number | null },
): DraftDecision {
  if (stored === undefined || stored === null) return { kind: "none" };
  const parsed = DraftRecordSchema.safeParse(stored);
  if (!parsed.success) return { kind: "discard", reason: "unreadable" };
  const draft = parsed.data;
  if (draft.projectId !== projectId) return { kind: "discard", reason: "other-project" };
  if (sameDocument(draft.document, server.document)) return { kind: "discard", reason: "same-as-saved" };
  return {
    kind: "restore",
    draft,
    staleBase: isStale(draft.baseVersion, server.version) ? draft.baseVersion : null,
  };
}

/** A draft is stale when the server holds a different version than the one it was edited from. */
export function isStale(draftBase: number | null, serverVersion: number | null): boolean {
  return draftBase !== null && serverVersion !== null && draftBase !== serverVersion;
}

/** How old a draft is, to follow "from": "a moment ago", "3 minutes ago", "yesterday", "4 days ago", then the date. */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return "a moment ago";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes === 1 ? "1 minute ago" : `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return hours === 1 ? "1 hour ago" : `${hours} hours ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return "yesterday";
  if (days < 7) return `${days} days ago`;
  return new Date(then).toISOString().slice(0, 10);
}
