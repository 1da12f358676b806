// Accounts, sessions, roles, project keys, credentials and the audit log (docs/security.md): who a
// request is (`authenticate`), whether the policy table lets it do what it asks (`authorise`), and
// the routes' operations. While no user exists the server behaves as before accounts (open, or
// behind TANDEM_API_TOKEN); the first user, made by `setup`, turns accounts on for good.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type Access, type PolicyMatch, roleAtLeast, scopesAllow } from "@/lib/access/policy";
import {
  type AccountLoginBody,
  type ApiKey,
  type AuditActor,
  type AuditEntry,
  type AuditFilters,
  auditCursor,
  type CreateKeyBody,
  type CreateUserBody,
  type CredentialInfo,
  type KeyScope,
  type Member,
  type ProjectRole,
  type SetupBody,
  type User,
} from "@/lib/contracts/access";
import type { SqlClient } from "@/lib/db/sql-client";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from "../errors";
import {
  bearerToken,
  configuredApiToken,
  cookieValue,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  secretsMatch,
  sessionCookieValue,
} from "../security/api-token";
import type { OidcIdentity } from "../security/oidc";
import { hashPassword, verifyAgainstNothing, verifyPassword } from "../security/passwords";
import { type Principal, seesEverything } from "../security/request-context";
import { open, seal } from "../security/secrets-box";
import { SignInLimiter } from "../security/sign-in-limiter";
import * as store from "../store/access-store";
import { projectExists } from "../store/project-versions";

/** Project keys start with this, so a leaked one is recognisable (secret scanners, logs). */
export const KEY_PREFIX = "tdk_";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const iso = (ms: number) => new Date(ms).toISOString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string | undefined): value is string => value !== undefined && UUID.test(value);

export interface Authentication {
  principal: Principal | null;
  /** Why there is none: nothing was sent, or what was sent is not valid. */
  failure?: "missing" | "invalid";
  /** Whether the principal came from the session cookie (cookie-authenticated writes get a CSRF check). */
  viaCookie: boolean;
  /** The user session's id hash, when the cookie carried one. */
  sessionHash?: string;
}

export interface AuthorisedRequest {
  principal: Principal;
  /** The route's project when the policy named one and it was resolved. */
  projectId?: string;
}

function toUser(row: store.UserRow): User {
  return { id: row.id, email: row.email, name: row.name, admin: row.admin };
}

function toKey(row: store.KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as KeyScope[],
    created_at: iso(row.created_at),
    prefix: row.prefix,
    last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
    created_by: row.created_by,
  };
}

export function actorOf(principal: Principal): AuditActor {
  switch (principal.type) {
    case "user":
      return { type: "user", id: principal.id, name: principal.name };
    case "key":
      return { type: "key", id: principal.id, name: principal.name };
    case "token":
      return { type: "user", id: null, name: "API token" };
    default:
      return { type: "user", id: null, name: "local" };
  }
}

export class AccessService {
  /** Once a user exists accounts stay on (users are never all deleted), so the answer is kept. */
  private accountsKnownOn = false;
  /**
   * When "no user yet" was last read: it is trusted for a second, so an open server does not ask on
   * every request. A setup in this process turns accounts on at once; in another process of the same
   * database (Postgres), within that second.
   */
  private accountsOffReadAt = Number.NEGATIVE_INFINITY;
  private readonly limiter = new SignInLimiter();

  constructor(private readonly db: SqlClient) {}

  async accountsOn(): Promise<boolean> {
    if (this.accountsKnownOn) return true;
    if (Date.now() - this.accountsOffReadAt < 1_000) return false;
    this.accountsKnownOn = await store.anyUserExists(this.db);
    if (!this.accountsKnownOn) this.accountsOffReadAt = Date.now();
    return this.accountsKnownOn;
  }

  /** Who sent these headers: the API token, a project key or a user session (cookie). */
  async authenticate(headers: Headers): Promise<Authentication> {
    const token = configuredApiToken();
    const bearer = bearerToken(headers.get("authorization"));
    if (bearer !== undefined) {
      if (token && secretsMatch(bearer, token)) return { principal: { type: "token" }, viaCookie: false };
      if (bearer.startsWith(KEY_PREFIX)) {
        const key = await store.findKeyBySecretHash(this.db, sha256(bearer));
        if (key)
          return {
            principal: {
              type: "key",
              id: key.id,
              name: key.name,
              projectId: key.project_id,
              scopes: key.scopes,
            },
            viaCookie: false,
          };
      }
      return { principal: null, failure: "invalid", viaCookie: false };
    }
    const session = cookieValue(headers.get("cookie"), SESSION_COOKIE);
    if (session) {
      if (token && secretsMatch(session, sessionCookieValue(token)))
        return { principal: { type: "token" }, viaCookie: true };
      if (await this.accountsOn()) {
        const sessionHash = sha256(session);
        const user = await store.sessionUser(this.db, sessionHash);
        if (user) return { principal: { type: "user", ...toUser(user) }, viaCookie: true, sessionHash };
      }
      return { principal: null, failure: "invalid", viaCookie: true };
    }
    return { principal: null, failure: "missing", viaCookie: false };
  }

  /**
   * The principal a request runs as, or UnauthorizedError / ForbiddenError. `bodyField` reads a
   * field of the JSON body (for routes whose project is named there) without consuming it.
   */
  async authorise(
    authentication: Authentication,
    match: PolicyMatch | null,
    request: { url: URL; bodyField: (field: string) => Promise<unknown> },
  ): Promise<AuthorisedRequest> {
    const token = configuredApiToken();
    const accounts = await this.accountsOn();
    let principal = authentication.principal;
    if (!principal) {
      if (!accounts && !token) return { principal: { type: "open" } };
      throw this.unauthorised(authentication.failure ?? "missing", accounts);
    }
    if (principal.type === "user" && !accounts) principal = { type: "open" };
    if (principal.type === "open" || principal.type === "token") return { principal };
    if (principal.type === "user" && principal.admin) return { principal };
    if (!match) throw new ForbiddenError("Only an admin may use this path.");
    const access = match.entry.access;
    switch (access.kind) {
      case "public":
      case "signed_in":
        return { principal };
      case "user":
        if (principal.type === "key")
          throw new ForbiddenError("A project key cannot do this; sign in as a user.");
        return { principal };
      case "admin":
        throw new ForbiddenError("Only an admin may do this.");
      case "project":
        return this.authoriseProject(principal, access, match, request);
    }
  }

  private unauthorised(failure: "missing" | "invalid", accounts: boolean): UnauthorizedError {
    if (!accounts) {
      return new UnauthorizedError(
        failure === "missing"
          ? "This server requires an API token: send `Authorization: Bearer <token>` (browsers sign in at /login)."
          : "The API token (or the browser session) is not valid. Check TANDEM_API_TOKEN, or sign in again at /login.",
      );
    }
    return new UnauthorizedError(
      failure === "missing"
        ? "Sign in first (POST /api/auth/login, or /login in a browser), or send a project key as `Authorization: Bearer <key>`."
        : "The session, project key or API token is not valid (signed out, revoked or expired). Sign in again at /login.",
    );
  }

  private async authoriseProject(
    principal: Extract<Principal, { type: "user" | "key" }>,
    access: Extract<Access, { kind: "project" }>,
    match: PolicyMatch,
    request: { url: URL; bodyField: (field: string) => Promise<unknown> },
  ): Promise<AuthorisedRequest> {
    const projectIds = await this.resolveProjects(access, match, request);
    // Nothing to resolve (no such thread, no project named): the route answers its own 400 or 404.
    if (projectIds.length === 0) return { principal };
    for (const projectId of projectIds) {
      if (principal.type === "key") {
        if (projectId !== principal.projectId)
          throw new ForbiddenError("This project key belongs to another project.");
        if (!scopesAllow(principal.scopes as KeyScope[], access))
          throw new ForbiddenError(
            access.mcp
              ? 'This project key has no "mcp" scope.'
              : `This project key's scopes (${principal.scopes.join(", ")}) do not allow this (it needs the ${access.role} level).`,
          );
        continue;
      }
      const role = (await store.memberRole(this.db, projectId, principal.id)) as ProjectRole | null;
      if (!roleAtLeast(role, access.role))
        throw new ForbiddenError(
          role
            ? `Your role on this project (${role}) may not do this; it needs ${access.role} or above.`
            : "You are not a member of this project.",
        );
    }
    return { principal, projectId: projectIds[0] as string };
  }

  private async resolveProjects(
    access: Extract<Access, { kind: "project" }>,
    match: PolicyMatch,
    request: { url: URL; bodyField: (field: string) => Promise<unknown> },
  ): Promise<string[]> {
    const source = access.project;
    const known = (id: string | null | undefined) => (isUuid(id ?? undefined) ? [id as string] : []);
    switch (source.from) {
      case "param":
        return known(match.params[source.param]);
      case "query":
        return known(request.url.searchParams.get(source.name));
      case "body": {
        const value = await request.bodyField(source.field);
        return typeof value === "string" ? known(value) : [];
      }
      case "thread": {
        const id = match.params[source.param];
        return isUuid(id) ? known(await store.threadProjectId(this.db, id)) : [];
      }
      case "approval": {
        const id = match.params[source.param];
        return isUuid(id) ? known(await store.approvalProjectId(this.db, id)) : [];
      }
      case "eval_run": {
        const id = match.params[source.param];
        return isUuid(id) ? known(await store.evalRunProjectId(this.db, id)) : [];
      }
      case "query-eval-runs": {
        const found: string[] = [];
        for (const name of source.names) {
          const id = request.url.searchParams.get(name) ?? undefined;
          if (isUuid(id)) found.push(...known(await store.evalRunProjectId(this.db, id)));
        }
        return found;
      }
      case "query-threads": {
        const found: string[] = [];
        for (const name of source.names) {
          const id = request.url.searchParams.get(name) ?? undefined;
          if (isUuid(id)) found.push(...known(await store.threadProjectId(this.db, id)));
        }
        return found;
      }
    }
  }

  /** The projects the principal may see, or null for all of them. */
  async visibleProjectIds(principal: Principal): Promise<Set<string> | null> {
    if (seesEverything(principal)) return null;
    if (principal.type === "key") return new Set([principal.projectId]);
    if (principal.type === "user") return new Set(await store.memberProjectIds(this.db, principal.id));
    return new Set();
  }

  /** Whether the principal may see the project (its pages). */
  async canView(principal: Principal, projectId: string): Promise<boolean> {
    const visible = await this.visibleProjectIds(principal);
    return visible === null || visible.has(projectId);
  }

  /** The creator of a project becomes its owner (a signed-in user; nothing to record otherwise). */
  async projectCreated(principal: Principal, projectId: string): Promise<void> {
    if (principal.type === "user") await store.upsertMember(this.db, projectId, principal.id, "owner");
  }

  // ── Accounts and sessions ──────────────────────────────────────────────────────────────────────

  async sessionInfo(
    principal: Principal | null,
  ): Promise<{ accounts: boolean; token_required: boolean; user: User | null }> {
    return {
      accounts: await this.accountsOn(),
      token_required: configuredApiToken() !== undefined,
      user:
        principal?.type === "user"
          ? { id: principal.id, email: principal.email, name: principal.name, admin: principal.admin }
          : null,
    };
  }

  /** The first user, an admin, with a session. ConflictError once any user exists. */
  async setup(body: SetupBody): Promise<{ user: User; session: string }> {
    const alreadyOn = () =>
      new ConflictError("Accounts are already set up: sign in at /login.", {}, "accounts_exist");
    if (await this.accountsOn()) throw alreadyOn();
    const user = {
      id: randomUUID(),
      email: body.email,
      name: body.name,
      password_hash: await hashPassword(body.password),
      admin: true,
    };
    const inserted = await store.insertUser(this.db, user, { onlyIfFirst: true });
    // Either way a user exists now: this process must not go on answering "off" from its cache
    // (a setup that lost the race to another one would otherwise leave it open for a second).
    this.accountsKnownOn = true;
    if (!inserted) throw alreadyOn();
    return { user: toUser({ ...user, created_at: Date.now() }), session: await this.newSession(user.id) };
  }

  /**
   * Checks an email and password: a new session (a new id every sign-in; the one the browser had is
   * ended) or UnauthorizedError; TooManyRequestsError after repeated failures.
   */
  async login(
    body: AccountLoginBody,
    context: { address: string; previousSessionHash?: string },
  ): Promise<{ user: User; session: string }> {
    const wait = this.limiter.retryAfterSeconds(body.email, context.address);
    if (wait > 0) throw new TooManyRequestsError(`Too many failed sign-ins; try again in ${wait} s.`, wait);
    const row = await store.findUserByEmail(this.db, body.email);
    const ok = row
      ? await verifyPassword(row.password_hash, body.password)
      : await verifyAgainstNothing(body.password);
    if (!row || !ok) {
      this.limiter.recordFailure(body.email, context.address);
      throw new UnauthorizedError("That email and password do not match an account.");
    }
    this.limiter.recordSuccess(body.email);
    if (context.previousSessionHash) await store.deleteSession(this.db, context.previousSessionHash);
    return { user: toUser(row), session: await this.newSession(row.id) };
  }

  /**
   * Signs in someone an OpenID Connect provider vouched for (docs/security.md "Single sign-on"): the
   * user already linked to this issuer + subject; else the user whose email the provider says is
   * verified (linked from now on); else, only when `allowSignup`, a new non-admin user with no
   * projects. Anyone else is refused with a message naming the email to invite. Never before setup:
   * the first user (an admin) is made at /setup. The session is made as for a password sign-in.
   */
  async signInWithOidc(
    identity: OidcIdentity,
    context: { allowSignup: boolean; previousSessionHash?: string },
  ): Promise<{ user: User; session: string; linked: boolean; created: boolean }> {
    if (!(await this.accountsOn()))
      throw new ConflictError(
        "Accounts are not set up yet: create the first admin at /setup, then sign in with your provider.",
        {},
        "accounts_not_set_up",
      );
    let row = await store.findUserByIdentity(this.db, identity.issuer, identity.subject);
    let linked = false;
    let created = false;
    if (!row) {
      const email = identity.email;
      if (!email)
        throw new ForbiddenError(
          "Your provider did not share an email address, so this account cannot be matched to a Tandem user. Ask an admin to check the provider's email scope.",
          {},
          "oidc_no_email",
        );
      if (!identity.emailVerified)
        throw new ForbiddenError(
          `Your provider has not verified the email ${email}, so it cannot be linked to a Tandem account. Verify it at your provider, then sign in again.`,
          { email },
          "oidc_email_unverified",
        );
      row = await store.findUserByEmail(this.db, email);
      if (!row && context.allowSignup) {
        const user = {
          id: randomUUID(),
          email,
          name: identity.name?.trim().slice(0, 200) || email,
          // No usable password: this account signs in through the provider only.
          password_hash: await hashPassword(randomBytes(32).toString("base64url")),
          admin: false,
        };
        if (await store.insertUser(this.db, user)) created = true;
        row = await store.findUserByEmail(this.db, email);
      }
      if (!row)
        throw new ForbiddenError(
          `No Tandem account uses ${email}. Ask an admin to invite ${email}, then sign in again.`,
          { email },
          "oidc_not_invited",
        );
      await store.insertIdentity(this.db, {
        issuer: identity.issuer,
        subject: identity.subject,
        userId: row.id,
        email,
      });
      // Another sign-in may have linked this account first: whoever it names is who signs in.
      row = (await store.findUserByIdentity(this.db, identity.issuer, identity.subject)) ?? row;
      linked = true;
    }
    if (context.previousSessionHash) await store.deleteSession(this.db, context.previousSessionHash);
    return { user: toUser(row), session: await this.newSession(row.id), linked, created };
  }

  async logout(sessionHash: string | undefined): Promise<void> {
    if (sessionHash) await store.deleteSession(this.db, sessionHash);
  }

  private async newSession(userId: string): Promise<string> {
    const session = randomBytes(32).toString("base64url");
    await store.insertSession(this.db, sha256(session), userId, Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
    if (Math.random() < 0.05) await store.deleteExpiredSessions(this.db);
    return session;
  }

  async createUser(body: CreateUserBody): Promise<User> {
    if (!(await this.accountsOn()))
      throw new ConflictError(
        "Accounts are not set up: the first user (an admin) is made with POST /api/auth/setup.",
        {},
        "accounts_not_set_up",
      );
    const user = {
      id: randomUUID(),
      email: body.email,
      name: body.name,
      password_hash: await hashPassword(body.password),
      admin: body.admin,
    };
    if (!(await store.insertUser(this.db, user)))
      throw new ConflictError(`A user with the email ${body.email} exists already.`, {}, "email_taken");
    this.accountsKnownOn = true;
    return toUser({ ...user, created_at: Date.now() });
  }

  async listUsers(): Promise<User[]> {
    return (await store.listUsers(this.db)).map(toUser);
  }

  // ── Members ────────────────────────────────────────────────────────────────────────────────────

  private async requireProject(projectId: string): Promise<void> {
    if (!isUuid(projectId) || !(await projectExists(this.db, projectId)))
      throw new NotFoundError("Project", projectId);
  }

  async listMembers(projectId: string): Promise<Member[]> {
    await this.requireProject(projectId);
    return (await store.listMembers(this.db, projectId)).map((row) => ({
      user_id: row.user_id,
      user: { id: row.user_id, email: row.email, name: row.name, admin: row.admin },
      email: row.email,
      name: row.name,
      role: row.role as ProjectRole,
      added_at: iso(row.added_at),
    }));
  }

  async setMember(projectId: string, userId: string, role: ProjectRole): Promise<Member[]> {
    await this.requireProject(projectId);
    if (!isUuid(userId) || !(await store.findUser(this.db, userId))) throw new NotFoundError("User", userId);
    const current = await store.memberRole(this.db, projectId, userId);
    if (current === "owner" && role !== "owner") await this.keepAnOwner(projectId);
    await store.upsertMember(this.db, projectId, userId, role);
    return this.listMembers(projectId);
  }

  async removeMember(projectId: string, userId: string): Promise<Member[]> {
    await this.requireProject(projectId);
    const current = isUuid(userId) ? await store.memberRole(this.db, projectId, userId) : null;
    if (!current) throw new NotFoundError("Member", userId);
    if (current === "owner") await this.keepAnOwner(projectId);
    await store.deleteMember(this.db, projectId, userId);
    return this.listMembers(projectId);
  }

  private async keepAnOwner(projectId: string): Promise<void> {
    if ((await store.countOwners(this.db, projectId)) <= 1)
      throw new ConflictError(
        "A project keeps at least one owner: make someone else owner first.",
        {},
        "last_owner",
      );
  }

  // ── Project keys ───────────────────────────────────────────────────────────────────────────────

  async createKey(
    projectId: string,
    body: CreateKeyBody,
    principal: Principal,
  ): Promise<{ key: ApiKey; secret: string }> {
    await this.requireProject(projectId);
    const secret = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const row = await store.insertKey(
      this.db,
      {
        id: randomUUID(),
        project_id: projectId,
        name: body.name,
        scopes: body.scopes,
        prefix: secret.slice(0, KEY_PREFIX.length + 6),
        created_by: actorOf(principal).name,
      },
      sha256(secret),
    );
    return { key: toKey(row), secret };
  }

  async listKeys(projectId: string): Promise<ApiKey[]> {
    await this.requireProject(projectId);
    return (await store.listKeys(this.db, projectId)).map(toKey);
  }

  async revokeKey(projectId: string, keyId: string): Promise<ApiKey> {
    await this.requireProject(projectId);
    const row = isUuid(keyId) ? await store.deleteKey(this.db, projectId, keyId) : null;
    if (!row) throw new NotFoundError("Key", keyId);
    return toKey(row);
  }

  // ── Credentials ────────────────────────────────────────────────────────────────────────────────

  async putCredential(projectId: string, name: string, value: string): Promise<CredentialInfo> {
    await this.requireProject(projectId);
    const { sealed, keyId } = seal(value);
    const row = await store.upsertCredential(this.db, projectId, name, sealed, keyId);
    return { name: row.name, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
  }

  async listCredentials(projectId: string): Promise<CredentialInfo[]> {
    await this.requireProject(projectId);
    return (await store.listCredentials(this.db, projectId)).map((row) => ({
      name: row.name,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    }));
  }

  async deleteCredential(projectId: string, name: string): Promise<void> {
    await this.requireProject(projectId);
    if (!(await store.deleteCredential(this.db, projectId, name)))
      throw new NotFoundError("Credential", name);
  }

  /**
   * A credential's value, for the model call that names it (never for a route). Values sealed under
   * an older key are re-sealed under the current one as they are read (rotation).
   */
  async credentialValue(projectId: string, name: string): Promise<string | undefined> {
    const row = await store.findCredential(this.db, projectId, name);
    if (!row) return undefined;
    const value = open(row.sealed, row.key_id);
    try {
      const current = seal(value);
      if (current.keyId !== row.key_id)
        await store.resealCredential(this.db, projectId, name, { sealed: row.sealed }, current);
    } catch {
      // No current key (only previous ones): it stays as it is.
    }
    return value;
  }

  // ── Audit ──────────────────────────────────────────────────────────────────────────────────────

  async recordAudit(
    principal: Principal,
    entry: {
      projectId: string | null;
      action: string;
      target: string | null;
      details: Record<string, unknown>;
    },
  ): Promise<void> {
    const actor = actorOf(principal);
    await store.insertAudit(this.db, {
      id: randomUUID(),
      project_id: entry.projectId && isUuid(entry.projectId) ? entry.projectId : null,
      actor_type: actor.type,
      actor_id: actor.id,
      actor_name: actor.name,
      action: entry.action,
      target: entry.target,
      details: entry.details,
    });
  }

  /**
   * A page of the project's audit log, newest first, and the cursor of the next page (null on the
   * last): one row more than the page is read to know whether another follows.
   */
  async listAudit(
    projectId: string,
    filters: AuditFilters,
  ): Promise<{ entries: AuditEntry[]; next_before: string | null }> {
    await this.requireProject(projectId);
    const rows = await store.listAudit(this.db, projectId, { ...filters, limit: filters.limit + 1 });
    const entries = rows.slice(0, filters.limit).map((row) => ({
      id: row.id,
      at: iso(row.at),
      actor: { type: row.actor_type as "user" | "key", id: row.actor_id, name: row.actor_name },
      action: row.action,
      target: row.target,
      details: row.details ?? {},
    }));
    const last = entries.at(-1);
    return { entries, next_before: rows.length > filters.limit && last ? auditCursor(last) : null };
  }

  /** The project of a thread (audit entries of thread routes name their project). */
  threadProject(threadId: string): Promise<string | null> {
    return isUuid(threadId) ? store.threadProjectId(this.db, threadId) : Promise.resolve(null);
  }

  evalRunProject(runId: string): Promise<string | null> {
    return isUuid(runId) ? store.evalRunProjectId(this.db, runId) : Promise.resolve(null);
  }

  approvalProject(approvalId: string): Promise<string | null> {
    return isUuid(approvalId) ? store.approvalProjectId(this.db, approvalId) : Promise.resolve(null);
  }
}
