// Response shapes of the access routes (API.md "Accounts, roles, keys, credentials, audit") as the
// browser reads them. Written against the contract's shapes; where the contract leaves a field's name
// open (a member's user id, a key's last use), the schemas accept the spellings a server may use and
// hand the UI one shape.
import { z } from "zod";
import { KEY_SCOPES, PROJECT_ROLES } from "@/lib/access/roles";

/** A time as the API may send it: an ISO string, or a number in µs (thread API style) or ms. */
const WhenSchema = z.union([z.string(), z.number()]).nullable().optional();
export type When = z.infer<typeof WhenSchema>;

export const RoleSchema = z.enum(PROJECT_ROLES);
export const ScopeSchema = z.enum(KEY_SCOPES);

export const UserSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  admin: z.boolean().optional().default(false),
});
export type AccountUser = z.infer<typeof UserSchema>;

/** Who is signed in, and whether this server has accounts at all (none: the local default). */
export const SessionSchema = z.looseObject({
  accounts: z.boolean(),
  user: UserSchema.nullable(),
});
export type AccountSession = z.infer<typeof SessionSchema>;

export const CreatedUserSchema = z.looseObject({ user: UserSchema });
export const UserListSchema = z.looseObject({ users: z.array(UserSchema) });

const MemberWireSchema = z.looseObject({
  user_id: z.string().optional(),
  userId: z.string().optional(),
  id: z.string().optional(),
  user: z
    .looseObject({ id: z.string(), email: z.string().optional(), name: z.string().optional() })
    .optional(),
  email: z.string().optional(),
  name: z.string().optional(),
  role: RoleSchema,
});
export const MemberSchema = MemberWireSchema.transform((member, context) => {
  const userId = member.user_id ?? member.userId ?? member.user?.id ?? member.id;
  if (userId === undefined) {
    context.addIssue({ code: "custom", message: "A member has no user id." });
    return z.NEVER;
  }
  return {
    userId,
    email: member.email ?? member.user?.email ?? "",
    name: member.name ?? member.user?.name ?? "",
    role: member.role,
  };
});
export type ProjectMember = z.output<typeof MemberSchema>;
export const MemberListSchema = z.looseObject({ members: z.array(MemberSchema) });

export const ApiKeySchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    scopes: z.array(ScopeSchema),
    created_at: WhenSchema,
    last_used_at: WhenSchema,
    lastUsedAt: WhenSchema,
  })
  .transform(({ lastUsedAt, last_used_at, ...key }) => ({
    ...key,
    last_used_at: last_used_at ?? lastUsedAt ?? null,
  }));
export type ApiKeyView = z.output<typeof ApiKeySchema>;
export const ApiKeyListSchema = z.looseObject({ keys: z.array(ApiKeySchema) });
export const CreatedApiKeySchema = z.looseObject({ key: ApiKeySchema, secret: z.string() });

export const CredentialSchema = z.looseObject({
  name: z.string(),
  created_at: WhenSchema,
  updated_at: WhenSchema,
});
export type CredentialView = z.infer<typeof CredentialSchema>;
export const CredentialListSchema = z.looseObject({ credentials: z.array(CredentialSchema) });

export const AuditEntrySchema = z.looseObject({
  id: z.string().optional(),
  at: z.union([z.string(), z.number()]),
  actor: z
    .looseObject({
      type: z.enum(["user", "key"]),
      id: z.string().nullable(),
      name: z.string().nullable().optional(),
    })
    .nullable(),
  action: z.string(),
  target: z.unknown().optional(),
  details: z.unknown().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditListSchema = z.looseObject({
  entries: z.array(AuditEntrySchema),
  /** The cursor of the next page (`before`), null or absent on the last. */
  next_before: z.string().nullable().optional(),
});
export type AuditPage = { entries: AuditEntry[]; nextBefore: string | null };

/** A `When` as a Date: ISO strings parse; numbers above 10^14 are µs, others ms. */
export function whenToDate(value: When): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return new Date(value > 1e14 ? value / 1000 : value);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
