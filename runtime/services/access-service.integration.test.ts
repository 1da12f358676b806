// The access service on each backend (PGlite always, the Postgres server when DATABASE_URL names
// one): setup only once, sessions, keys by their hash, credentials sealed and re-sealed on rotation,
// and an audit log that refuses UPDATE and DELETE.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject } from "../../test/support/thread-rows";
import { AccessService } from "./access-service";

const KEY_A = "ab".repeat(32);
const KEY_B = "cd".repeat(32);

describe.each(testDatabaseBackends())("access service on %s", (backend) => {
  let database: Database;
  let access: AccessService;
  const savedKey = process.env.TANDEM_SECRETS_KEY;
  const savedPrevious = process.env.TANDEM_SECRETS_KEY_PREVIOUS;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    access = new AccessService(database.sql);
    process.env.TANDEM_SECRETS_KEY = KEY_A;
  });
  afterAll(async () => {
    process.env.TANDEM_SECRETS_KEY = savedKey;
    process.env.TANDEM_SECRETS_KEY_PREVIOUS = savedPrevious;
    if (savedKey === undefined) delete process.env.TANDEM_SECRETS_KEY;
    if (savedPrevious === undefined) delete process.env.TANDEM_SECRETS_KEY_PREVIOUS;
    await database?.close();
  });

  it("sets up one admin, once, even when two setups race", async () => {
    expect(await access.accountsOn()).toBe(false);
    const results = await Promise.allSettled([
      access.setup({ email: "a@example.com", password: "password-a", name: "A" }),
      new AccessService(database.sql).setup({ email: "b@example.com", password: "password-b", name: "B" }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await access.accountsOn()).toBe(true);
    const users = await access.listUsers();
    expect(users).toHaveLength(1);
    expect(users[0]?.admin).toBe(true);
  });

  it("finds sessions and keys by their hashes only", async () => {
    const [admin] = await access.listUsers();
    const password = admin?.email === "a@example.com" ? "password-a" : "password-b";
    const { session, user } = await access.login(
      { email: admin?.email ?? "", password },
      { address: "test" },
    );
    const signedIn = await access.authenticate(new Headers({ cookie: `tandem_session=${session}` }));
    expect(signedIn.principal).toMatchObject({ type: "user", id: user.id, admin: true });
    const stored = await database.sql.query<{ id_hash: string }>("SELECT id_hash FROM user_sessions");
    expect(stored.map((row) => row.id_hash)).not.toContain(session);
    await access.logout(signedIn.sessionHash);
    expect(
      (await access.authenticate(new Headers({ cookie: `tandem_session=${session}` }))).principal,
    ).toBeNull();

    const projectId = await insertTestProject(database.sql);
    const { key, secret } = await access.createKey(
      projectId,
      { name: "k", scopes: ["read"] },
      { type: "token" },
    );
    const keys = await database.sql.query<Record<string, unknown>>("SELECT * FROM project_keys");
    expect(JSON.stringify(keys)).not.toContain(secret);
    const byKey = await access.authenticate(new Headers({ authorization: `Bearer ${secret}` }));
    expect(byKey.principal).toMatchObject({ type: "key", id: key.id, projectId, scopes: ["read"] });
    await access.revokeKey(projectId, key.id);
    expect((await access.authenticate(new Headers({ authorization: `Bearer ${secret}` }))).failure).toBe(
      "invalid",
    );
  });

  it("seals credentials, and re-seals them under the new key after a rotation", async () => {
    const projectId = await insertTestProject(database.sql);
    await access.putCredential(projectId, "openai", "sk-rotate-me");
    const before = await database.sql.query<{ sealed: string; key_id: string }>(
      "SELECT sealed, key_id FROM project_credentials WHERE project_id = $1",
      [projectId],
    );
    expect(before[0]?.sealed).not.toContain("sk-rotate-me");
    process.env.TANDEM_SECRETS_KEY = KEY_B;
    process.env.TANDEM_SECRETS_KEY_PREVIOUS = KEY_A;
    expect(await access.credentialValue(projectId, "openai")).toBe("sk-rotate-me");
    const after = await database.sql.query<{ key_id: string }>(
      "SELECT key_id FROM project_credentials WHERE project_id = $1",
      [projectId],
    );
    expect(after[0]?.key_id).not.toBe(before[0]?.key_id);
    delete process.env.TANDEM_SECRETS_KEY_PREVIOUS;
    expect(await access.credentialValue(projectId, "openai")).toBe("sk-rotate-me");
  });

  it("keeps the audit log append-only", async () => {
    const projectId = await insertTestProject(database.sql);
    await access.recordAudit(
      { type: "token" },
      { projectId, action: "thread.stop", target: "t", details: {} },
    );
    expect((await access.listAudit(projectId, { limit: 5, action: "thread" })).entries).toEqual([
      expect.objectContaining({
        action: "thread.stop",
        actor: { type: "user", id: null, name: "API token" },
      }),
    ]);
    await expect(database.sql.query("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
    await expect(database.sql.query("DELETE FROM audit_log")).rejects.toThrow(/append-only/);
  });
});
