// Accounts, roles, project keys, credentials and the audit log (API.md "Accounts, roles, keys,
// credentials, audit"): the bodies the routes take and the shapes they answer, shared by the routes,
// the studio's pages and the tests. Secrets (passwords, key secrets, credential values) appear only
// in request bodies and, once, in the key-creation answer — never in any other shape here.
import { z } from "zod";

export const PROJECT_ROLES = ["viewer", "runner", "editor", "owner"] as const;
export const ProjectRoleSchema = z.enum(PROJECT_ROLES, {
  error: 'role must be "owner", "editor", "runner" or "viewer"',
});
export type ProjectRole = z.infer<typeof ProjectRoleSchema>;

export const KEY_SCOPES = ["read", "run", "design", "mcp"] as const;
export const KeyScopeSchema = z.enum(KEY_SCOPES, {
  error: 'scopes are "read", "run", "design" or "mcp"',
});
export type KeyScope = z.infer<typeof KeyScopeSchema>;

const email = z
  .string({ error: "email is required (a string)" })
  .trim()
  .toLowerCase()
  .max(320, "email is at most 320 characters")
  .regex(/^[^\s@]+@[^\s@]+$/, "email must look like name@example.com");
/** Long enough to matter, short enough that hashing it is cheap (argon2 hashes any length). */
const password = z
  .string({ error: "password is required (a string)" })
  .min(8, "password must be at least 8 characters")
  .max(1024, "password is at most 1024 characters");
const displayName = z
  .string({ error: "name is required (a string)" })
  .trim()
  .min(1, "name must not be empty")
  .max(200, "name is at most 200 characters");

/** POST /api/auth/setup — the first user (an admin), only while no user exists. Strict: a body with
 * anything else is a 400, not a setup (turning accounts on is never a side effect of a sloppy body). */
export const SetupBodySchema = z.strictObject({ email, password, name: displayName });
export type SetupBody = z.infer<typeof SetupBodySchema>;

/** POST /api/auth/login with an account (the API-token form `{ token }` is the older way in). */
export const AccountLoginBodySchema = z.object({
  email,
  password: z.string({ error: "password is required (a string)" }).max(1024),
  next: z.string().max(2048).optional(),
});
export type AccountLoginBody = z.infer<typeof AccountLoginBodySchema>;

/** POST /api/auth/login without accounts, behind TANDEM_API_TOKEN: the token itself. */
export const TokenLoginBodySchema = z.object({
  token: z.string().max(4096),
  next: z.string().max(2048).optional(),
});

/** POST /api/users (admins). */
export const CreateUserBodySchema = z.object({
  email,
  password,
  name: displayName,
  admin: z.boolean({ error: "admin must be true or false" }).optional().default(false),
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  admin: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

/** PUT /api/projects/:id/members/:userId */
export const MemberRoleBodySchema = z.object({ role: ProjectRoleSchema });

export const MemberSchema = z.object({
  user_id: z.string(),
  /** The member's account (the same id, email and name, and whether they are an admin). */
  user: UserSchema,
  email: z.string(),
  name: z.string(),
  role: ProjectRoleSchema,
  added_at: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;

/** POST /api/projects/:id/keys */
export const CreateKeyBodySchema = z.object({
  name: z
    .string({ error: "name is required (a string)" })
    .trim()
    .min(1, "name must not be empty")
    .max(200, "name is at most 200 characters"),
  scopes: z
    .array(KeyScopeSchema, { error: 'scopes is required (a list of "read", "run", "design", "mcp")' })
    .min(1, "scopes must name at least one scope")
    .max(4)
    .transform((scopes) => [...new Set(scopes)]),
});
export type CreateKeyBody = z.infer<typeof CreateKeyBodySchema>;

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(KeyScopeSchema),
  created_at: z.string(),
  /** The first characters of the secret (`tdk_AbCd…`), to tell keys apart; never the secret. */
  prefix: z.string(),
  last_used_at: z.string().nullable(),
  created_by: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The only answer that carries a key's secret: POST /api/projects/:id/keys (201). */
export const CreatedKeySchema = z.object({ key: ApiKeySchema, secret: z.string() });

/** A credential's name: what a model's `apiKeyCredential` says. */
export const CredentialNameSchema = z
  .string()
  .min(1, "the credential name must not be empty")
  .max(100, "the credential name is at most 100 characters")
  .regex(/^[A-Za-z0-9_.-]+$/, "the credential name is letters, digits, '_', '-' and '.'");

/** PUT /api/projects/:id/credentials/:name */
export const CredentialBodySchema = z.object({
  value: z
    .string({ error: "value is required (a string)" })
    .min(1, "value must not be empty")
    .max(16_384, "value is at most 16384 characters"),
});

/** What GET /api/projects/:id/credentials lists: names and dates, never a value. */
export const CredentialInfoSchema = z.object({
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CredentialInfo = z.infer<typeof CredentialInfoSchema>;

export const AuditActorSchema = z.object({
  type: z.enum(["user", "key"]),
  id: z.string().nullable(),
  name: z.string(),
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: AuditActorSchema,
  action: z.string(),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/**
 * GET /api/projects/:id/audit's query: `limit` (1–1000, 100 by default), `action` (one action or a
 * family such as `thread`), `actor` (a user's or key's id), `from` / `to` (an ISO time or epoch ms,
 * both inclusive) and `before` (the `next_before` cursor of the previous page, or an epoch ms).
 * Each error names its parameter (a 400).
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const AuditTime = (name: string) =>
  z
    .string()
    .max(40, `${name} is at most 40 characters`)
    .transform((raw, context) => {
      // Epoch ms, or an ISO 8601 date-time (Date.parse alone would read "-5" as a date in 2001).
      const ms = /^\d{1,15}$/.test(raw) ? Number(raw) : ISO_TIME.test(raw) ? Date.parse(raw) : Number.NaN;
      if (!Number.isFinite(ms) || ms < 0) {
        context.addIssue({ code: "custom", message: `${name} must be an ISO time or epoch milliseconds` });
        return z.NEVER;
      }
      return ms;
    })
    .optional();

export const AUDIT_CURSOR =
  /^(\d{1,15})(?:_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}))?$/;

export const AuditQuerySchema = z
  .object({
    limit: z
      .string()
      .regex(/^\d{1,4}$/, "limit must be an integer from 1 to 1000")
      .transform(Number)
      .refine((value) => value >= 1 && value <= 1000, "limit must be an integer from 1 to 1000")
      .optional(),
    action: z
      .string()
      .max(100, "action is at most 100 characters")
      .regex(/^[a-z_]+(?:\.[a-z_]+)*$/, "action is an action (thread.stop) or a family (thread)")
      .optional(),
    actor: z
      .string()
      .max(200, "actor is at most 200 characters")
      .regex(/^[A-Za-z0-9_-]+$/, "actor is the id of a user or a key")
      .optional(),
    from: AuditTime("from"),
    to: AuditTime("to"),
    before: z
      .string()
      .max(60, "before is at most 60 characters")
      .regex(AUDIT_CURSOR, "before is the next_before of a previous page (or epoch milliseconds)")
      .transform((raw) => {
        const [, at, id] = AUDIT_CURSOR.exec(raw) ?? [];
        return { at: Number(at), id: id ?? null };
      })
      .optional(),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    path: ["to"],
    message: "to must not be before from",
  });
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** The filters the store applies (AuditQuery without its defaults). */
export interface AuditFilters {
  limit: number;
  action?: string;
  actor?: string;
  from?: number;
  to?: number;
  before?: { at: number; id: string | null };
}

/** The cursor of the page after one ending with this entry (`next_before`). */
export function auditCursor(entry: { at: string; id: string }): string {
  return `${Date.parse(entry.at)}_${entry.id}`;
}

/** GET /api/auth/session — whether accounts are on, and who this request is. */
export const SessionInfoSchema = z.object({
  accounts: z.boolean(),
  token_required: z.boolean(),
  user: UserSchema.nullable(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
