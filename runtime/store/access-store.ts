// SQL of accounts, sessions, project members, project keys, credentials and the audit log
// (docs/security.md). Timestamps are epoch milliseconds (BIGINT), as elsewhere in the store.

import type { AuditFilters } from "@/lib/contracts/access";
import type { SqlExecutor } from "@/lib/db/sql-client";

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  admin: boolean;
  created_at: number;
}

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  admin: boolean;
  role: string;
  added_at: number;
}

export interface KeyRow {
  id: string;
  project_id: string;
  name: string;
  scopes: string[];
  prefix: string;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
}

export interface CredentialRow {
  name: string;
  sealed: string;
  key_id: string;
  created_at: number;
  updated_at: number;
}

export interface AuditRow {
  id: string;
  project_id: string | null;
  at: number;
  actor_type: string;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export async function anyUserExists(db: SqlExecutor): Promise<boolean> {
  const rows = await db.query<{ found: boolean }>("SELECT EXISTS (SELECT 1 FROM users) AS found");
  return rows[0]?.found === true;
}

function userRow(row: UserRow): UserRow {
  return { ...row, created_at: Number(row.created_at) };
}

/**
 * Inserts a user; with `onlyIfFirst`, only while no user exists (one statement, so two setups at
 * once cannot both win). Resolves false when it inserted nothing.
 */
export async function insertUser(
  db: SqlExecutor,
  user: Omit<UserRow, "created_at">,
  options: { onlyIfFirst?: boolean } = {},
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO users (id, email, name, password_hash, admin, created_at)
     SELECT $1::uuid, $2::text, $3::text, $4::text, $5::boolean, $6::bigint
     WHERE NOT $7::boolean OR NOT EXISTS (SELECT 1 FROM users)
     ON CONFLICT (email) DO NOTHING
     RETURNING id`,
    [
      user.id,
      user.email,
      user.name,
      user.password_hash,
      user.admin,
      Date.now(),
      options.onlyIfFirst === true,
    ],
  );
  return rows.length > 0;
}

export async function findUserByEmail(db: SqlExecutor, email: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>("SELECT * FROM users WHERE email = $1", [email]);
  return rows[0] ? userRow(rows[0]) : null;
}

export async function findUser(db: SqlExecutor, id: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>("SELECT * FROM users WHERE id = $1::uuid", [id]);
  return rows[0] ? userRow(rows[0]) : null;
}

export async function listUsers(db: SqlExecutor): Promise<UserRow[]> {
  const rows = await db.query<UserRow>("SELECT * FROM users ORDER BY created_at, email");
  return rows.map(userRow);
}

/** The user linked to this provider account (OIDC issuer + subject), if any. */
export async function findUserByIdentity(
  db: SqlExecutor,
  issuer: string,
  subject: string,
): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(
    `SELECT u.* FROM user_identities i JOIN users u ON u.id = i.user_id
      WHERE i.issuer = $1 AND i.subject = $2`,
    [issuer, subject],
  );
  return rows[0] ? userRow(rows[0]) : null;
}

/** Links a provider account to a user; false when that account is linked already (to anyone). */
export async function insertIdentity(
  db: SqlExecutor,
  identity: { issuer: string; subject: string; userId: string; email: string },
): Promise<boolean> {
  const rows = await db.query<{ subject: string }>(
    `INSERT INTO user_identities (issuer, subject, user_id, email, created_at)
     VALUES ($1, $2, $3::uuid, $4, $5)
     ON CONFLICT (issuer, subject) DO NOTHING
     RETURNING subject`,
    [identity.issuer, identity.subject, identity.userId, identity.email, Date.now()],
  );
  return rows.length > 0;
}

export async function insertSession(
  db: SqlExecutor,
  idHash: string,
  userId: string,
  expiresAt: number,
): Promise<void> {
  await db.query(
    "INSERT INTO user_sessions (id_hash, user_id, created_at, expires_at) VALUES ($1, $2::uuid, $3, $4)",
    [idHash, userId, Date.now(), expiresAt],
  );
}

/** The session's user while the session is live (expired sessions are deleted here). */
export async function sessionUser(db: SqlExecutor, idHash: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow & { expires_at: number }>(
    `SELECT u.*, s.expires_at FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1`,
    [idHash],
  );
  const row = rows[0];
  if (!row) return null;
  if (Number(row.expires_at) <= Date.now()) {
    await deleteSession(db, idHash);
    return null;
  }
  const { expires_at: _expires, ...user } = row;
  return userRow(user);
}

export async function deleteSession(db: SqlExecutor, idHash: string): Promise<void> {
  await db.query("DELETE FROM user_sessions WHERE id_hash = $1", [idHash]);
}

export async function deleteExpiredSessions(db: SqlExecutor): Promise<void> {
  await db.query("DELETE FROM user_sessions WHERE expires_at <= $1", [Date.now()]);
}

export async function memberRole(db: SqlExecutor, projectId: string, userId: string): Promise<string | null> {
  const rows = await db.query<{ role: string }>(
    "SELECT role FROM project_members WHERE project_id = $1::uuid AND user_id = $2::uuid",
    [projectId, userId],
  );
  return rows[0]?.role ?? null;
}

export async function memberProjectIds(db: SqlExecutor, userId: string): Promise<string[]> {
  const rows = await db.query<{ project_id: string }>(
    "SELECT project_id FROM project_members WHERE user_id = $1::uuid",
    [userId],
  );
  return rows.map((row) => row.project_id);
}

export async function listMembers(db: SqlExecutor, projectId: string): Promise<MemberRow[]> {
  const rows = await db.query<MemberRow>(
    `SELECT m.user_id, u.email, u.name, u.admin, m.role, m.added_at
       FROM project_members m JOIN users u ON u.id = m.user_id
      WHERE m.project_id = $1::uuid ORDER BY m.added_at, u.email`,
    [projectId],
  );
  return rows.map((row) => ({ ...row, added_at: Number(row.added_at) }));
}

export async function upsertMember(
  db: SqlExecutor,
  projectId: string,
  userId: string,
  role: string,
): Promise<void> {
  await db.query(
    `INSERT INTO project_members (project_id, user_id, role, added_at) VALUES ($1::uuid, $2::uuid, $3, $4)
     ON CONFLICT (project_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
    [projectId, userId, role, Date.now()],
  );
}

export async function deleteMember(db: SqlExecutor, projectId: string, userId: string): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    "DELETE FROM project_members WHERE project_id = $1::uuid AND user_id = $2::uuid RETURNING user_id",
    [projectId, userId],
  );
  return rows.length > 0;
}

export async function countOwners(db: SqlExecutor, projectId: string): Promise<number> {
  const rows = await db.query<{ owners: number }>(
    "SELECT count(*)::int AS owners FROM project_members WHERE project_id = $1::uuid AND role = 'owner'",
    [projectId],
  );
  return Number(rows[0]?.owners ?? 0);
}

function keyRow(row: KeyRow): KeyRow {
  return { ...row, created_at: Number(row.created_at), last_used_at: num(row.last_used_at) };
}

export async function insertKey(
  db: SqlExecutor,
  key: Omit<KeyRow, "created_at" | "last_used_at">,
  secretHash: string,
) {
  const rows = await db.query<KeyRow>(
    `INSERT INTO project_keys (id, project_id, name, scopes, secret_hash, prefix, created_by, created_at)
     VALUES ($1::uuid, $2::uuid, $3, $4::text[], $5, $6, $7, $8)
     RETURNING id, project_id, name, scopes, prefix, created_by, created_at, last_used_at`,
    [key.id, key.project_id, key.name, key.scopes, secretHash, key.prefix, key.created_by, Date.now()],
  );
  return keyRow(rows[0] as KeyRow);
}

export async function listKeys(db: SqlExecutor, projectId: string): Promise<KeyRow[]> {
  const rows = await db.query<KeyRow>(
    `SELECT id, project_id, name, scopes, prefix, created_by, created_at, last_used_at
       FROM project_keys WHERE project_id = $1::uuid ORDER BY created_at, id`,
    [projectId],
  );
  return rows.map(keyRow);
}

export async function deleteKey(db: SqlExecutor, projectId: string, keyId: string): Promise<KeyRow | null> {
  const rows = await db.query<KeyRow>(
    `DELETE FROM project_keys WHERE project_id = $1::uuid AND id = $2::uuid
     RETURNING id, project_id, name, scopes, prefix, created_by, created_at, last_used_at`,
    [projectId, keyId],
  );
  return rows[0] ? keyRow(rows[0]) : null;
}

/** The key with this secret hash, its last-used time set to now (at most once a minute). */
export async function findKeyBySecretHash(db: SqlExecutor, secretHash: string): Promise<KeyRow | null> {
  const rows = await db.query<KeyRow>(
    `SELECT id, project_id, name, scopes, prefix, created_by, created_at, last_used_at
       FROM project_keys WHERE secret_hash = $1`,
    [secretHash],
  );
  const row = rows[0];
  if (!row) return null;
  const now = Date.now();
  if (row.last_used_at === null || Number(row.last_used_at) < now - 60_000) {
    await db.query("UPDATE project_keys SET last_used_at = $2 WHERE id = $1::uuid", [row.id, now]);
    row.last_used_at = now;
  }
  return keyRow(row);
}

export async function upsertCredential(
  db: SqlExecutor,
  projectId: string,
  name: string,
  sealed: string,
  keyId: string,
): Promise<CredentialRow> {
  const now = Date.now();
  const rows = await db.query<CredentialRow>(
    `INSERT INTO project_credentials (project_id, name, sealed, key_id, created_at, updated_at)
     VALUES ($1::uuid, $2, $3, $4, $5, $5)
     ON CONFLICT (project_id, name) DO UPDATE SET sealed = EXCLUDED.sealed, key_id = EXCLUDED.key_id,
       updated_at = EXCLUDED.updated_at
     RETURNING name, sealed, key_id, created_at, updated_at`,
    [projectId, name, sealed, keyId, now],
  );
  const row = rows[0] as CredentialRow;
  return { ...row, created_at: Number(row.created_at), updated_at: Number(row.updated_at) };
}

export async function listCredentials(db: SqlExecutor, projectId: string): Promise<CredentialRow[]> {
  const rows = await db.query<CredentialRow>(
    `SELECT name, sealed, key_id, created_at, updated_at FROM project_credentials
      WHERE project_id = $1::uuid ORDER BY name`,
    [projectId],
  );
  return rows.map((row) => ({
    ...row,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  }));
}

export async function findCredential(
  db: SqlExecutor,
  projectId: string,
  name: string,
): Promise<CredentialRow | null> {
  const rows = await db.query<CredentialRow>(
    `SELECT name, sealed, key_id, created_at, updated_at FROM project_credentials
      WHERE project_id = $1::uuid AND name = $2`,
    [projectId, name],
  );
  return rows[0] ?? null;
}

/** Re-seals a credential under the current key (rotation), unless it changed meanwhile. */
export async function resealCredential(
  db: SqlExecutor,
  projectId: string,
  name: string,
  from: { sealed: string },
  to: { sealed: string; keyId: string },
): Promise<void> {
  await db.query(
    `UPDATE project_credentials SET sealed = $4, key_id = $5
      WHERE project_id = $1::uuid AND name = $2 AND sealed = $3`,
    [projectId, name, from.sealed, to.sealed, to.keyId],
  );
}

export async function deleteCredential(db: SqlExecutor, projectId: string, name: string): Promise<boolean> {
  const rows = await db.query<{ name: string }>(
    "DELETE FROM project_credentials WHERE project_id = $1::uuid AND name = $2 RETURNING name",
    [projectId, name],
  );
  return rows.length > 0;
}

export async function insertAudit(db: SqlExecutor, entry: Omit<AuditRow, "at">): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (id, project_id, at, actor_type, actor_id, actor_name, action, target, details)
     VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $9::text::jsonb)`,
    [
      entry.id,
      entry.project_id,
      Date.now(),
      entry.actor_type,
      entry.actor_id,
      entry.actor_name,
      entry.action,
      entry.target,
      JSON.stringify(entry.details),
    ],
  );
}

/**
 * A project's audit entries, newest first, narrowed by the filters; `before` is a keyset cursor
 * (entries strictly older than `(at, id)`, so entries sharing a millisecond are neither skipped nor
 * repeated across pages). Asks for `limit` rows: the caller asks one more to know if a page follows.
 */
export async function listAudit(
  db: SqlExecutor,
  projectId: string,
  options: AuditFilters,
): Promise<AuditRow[]> {
  const before = options.before ?? null;
  const rows = await db.query<AuditRow>(
    `SELECT * FROM audit_log
      WHERE project_id = $1::uuid AND ($2::text IS NULL OR action = $2 OR action LIKE $2 || '.%')
        AND ($3::text IS NULL OR actor_id = $3)
        AND ($4::bigint IS NULL OR at >= $4)
        AND ($5::bigint IS NULL OR at <= $5)
        AND ($6::bigint IS NULL OR at < $6 OR ($7::uuid IS NOT NULL AND at = $6 AND id < $7::uuid))
      ORDER BY at DESC, id DESC LIMIT $8`,
    [
      projectId,
      options.action ?? null,
      options.actor ?? null,
      options.from ?? null,
      options.to ?? null,
      before?.at ?? null,
      before?.id ?? null,
      options.limit,
    ],
  );
  return rows.map((row) => ({ ...row, at: Number(row.at) }));
}

export async function threadProjectId(db: SqlExecutor, threadId: string): Promise<string | null> {
  const rows = await db.query<{ project_id: string }>("SELECT project_id FROM threads WHERE id = $1::uuid", [
    threadId,
  ]);
  return rows[0]?.project_id ?? null;
}

export async function evalRunProjectId(db: SqlExecutor, runId: string): Promise<string | null> {
  const rows = await db.query<{ project_id: string }>(
    "SELECT project_id FROM eval_runs WHERE id = $1::uuid",
    [runId],
  );
  return rows[0]?.project_id ?? null;
}

export async function approvalProjectId(db: SqlExecutor, approvalId: string): Promise<string | null> {
  const rows = await db.query<{ project_id: string }>(
    "SELECT project_id FROM tool_approvals WHERE id = $1::uuid",
    [approvalId],
  );
  return rows[0]?.project_id ?? null;
}
