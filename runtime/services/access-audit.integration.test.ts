// The audit log's filters and pages on each backend (PGlite always, the Postgres server when
// DATABASE_URL names one): action or family, actor, a time range with both ends kept, and the
// `next_before` cursor, which neither skips nor repeats entries written in the same millisecond.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject } from "../../test/support/thread-rows";
import { AccessService } from "./access-service";

const T0 = Date.parse("2026-11-01T10:00:00Z");
const MINUTE = 60_000;

interface Row {
  at: number;
  actor: string;
  action: string;
}

describe.each(testDatabaseBackends())("audit filters on %s", (backend) => {
  let database: Database;
  let access: AccessService;
  let projectId = "";
  let otherProject = "";
  // Nine entries: three actors, actions of three families, two of them in one millisecond at T0+5m.
  const rows: Row[] = [
    { at: T0, actor: "user-a", action: "version.save" },
    { at: T0 + MINUTE, actor: "user-b", action: "thread.start" },
    { at: T0 + 2 * MINUTE, actor: "key-1", action: "thread.stop" },
    { at: T0 + 3 * MINUTE, actor: "user-a", action: "member.set" },
    { at: T0 + 4 * MINUTE, actor: "user-b", action: "thread.start" },
    { at: T0 + 5 * MINUTE, actor: "key-1", action: "thread.terminate" },
    { at: T0 + 5 * MINUTE, actor: "user-a", action: "version.restore" },
    { at: T0 + 6 * MINUTE, actor: "user-a", action: "thread.start" },
    { at: T0 + 7 * MINUTE, actor: "user-b", action: "approval.decide" },
  ];

  async function insert(project: string, row: Row) {
    await database.sql.query(
      `INSERT INTO audit_log (id, project_id, at, actor_type, actor_id, actor_name, action, target, details)
       VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, NULL, '{}'::jsonb)`,
      [
        randomUUID(),
        project,
        row.at,
        row.actor.startsWith("key") ? "key" : "user",
        row.actor,
        row.actor,
        row.action,
      ],
    );
  }

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    access = new AccessService(database.sql);
    projectId = await insertTestProject(database.sql);
    otherProject = await insertTestProject(database.sql);
    for (const row of rows) await insert(projectId, row);
    // Another project's entries never show.
    await insert(otherProject, { at: T0 + 3 * MINUTE, actor: "user-a", action: "thread.start" });
  });
  afterAll(async () => {
    await database?.close();
  });

  const actions = (page: { entries: { action: string }[] }) => page.entries.map((entry) => entry.action);

  it("filters by one action or a family, newest first", async () => {
    expect(actions(await access.listAudit(projectId, { limit: 100, action: "thread.start" }))).toEqual([
      "thread.start",
      "thread.start",
      "thread.start",
    ]);
    const family = await access.listAudit(projectId, { limit: 100, action: "thread" });
    expect(family.entries).toHaveLength(5);
    expect(family.entries.every((entry) => entry.action.startsWith("thread."))).toBe(true);
    // "thread" is a family, not a prefix of any word: no "threadx.*" would match.
    expect((await access.listAudit(projectId, { limit: 100, action: "thread.st" })).entries).toEqual([]);
    expect(family.next_before).toBeNull();
  });

  it("filters by actor (a user's or a key's id), with the contract's entry shape", async () => {
    const key = await access.listAudit(projectId, { limit: 100, actor: "key-1" });
    expect(actions(key)).toEqual(["thread.terminate", "thread.stop"]);
    expect(key.entries[0]).toEqual({
      id: expect.any(String),
      at: new Date(T0 + 5 * MINUTE).toISOString(),
      actor: { type: "key", id: "key-1", name: "key-1" },
      action: "thread.terminate",
      target: null,
      details: {},
    });
    const both = await access.listAudit(projectId, { limit: 100, actor: "user-b", action: "thread" });
    expect(actions(both)).toEqual(["thread.start", "thread.start"]);
    expect((await access.listAudit(projectId, { limit: 100, actor: "nobody" })).entries).toEqual([]);
  });

  it("keeps both ends of a time range", async () => {
    const range = await access.listAudit(projectId, {
      limit: 100,
      from: T0 + 2 * MINUTE,
      to: T0 + 5 * MINUTE,
    });
    expect(range.entries.map((entry) => Date.parse(entry.at))).toEqual([
      T0 + 5 * MINUTE,
      T0 + 5 * MINUTE,
      T0 + 4 * MINUTE,
      T0 + 3 * MINUTE,
      T0 + 2 * MINUTE,
    ]);
    expect((await access.listAudit(projectId, { limit: 100, from: T0 + 7 * MINUTE + 1 })).entries).toEqual(
      [],
    );
    expect(actions(await access.listAudit(projectId, { limit: 100, to: T0 }))).toEqual(["version.save"]);
  });

  it("pages through everything with next_before, nothing skipped or repeated in a shared millisecond", async () => {
    const seen: string[] = [];
    let before: { at: number; id: string | null } | undefined;
    let pages = 0;
    for (;;) {
      const page = await access.listAudit(projectId, { limit: 2, ...(before ? { before } : {}) });
      pages += 1;
      seen.push(...page.entries.map((entry) => entry.id));
      if (!page.next_before) break;
      const [at, id] = page.next_before.split("_");
      before = { at: Number(at), id: id ?? null };
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(5);
    const all = await access.listAudit(projectId, { limit: 100 });
    expect(seen).toEqual(all.entries.map((entry) => entry.id));
    expect(new Set(seen).size).toBe(rows.length);
    // A page that ends exactly at the last entry says there is no next one.
    expect((await access.listAudit(projectId, { limit: rows.length })).next_before).toBeNull();
    // The older cursor form (epoch ms alone) keeps what is strictly older.
    expect(
      (await access.listAudit(projectId, { limit: 100, before: { at: T0 + MINUTE, id: null } })).entries,
    ).toHaveLength(1);
  });

  it("pages within a filter", async () => {
    const first = await access.listAudit(projectId, { limit: 2, actor: "user-a" });
    expect(actions(first)).toEqual(["thread.start", "version.restore"]);
    expect(first.next_before).toMatch(/^\d+_[0-9a-f-]{36}$/);
    const [at, id] = (first.next_before ?? "").split("_");
    const second = await access.listAudit(projectId, {
      limit: 2,
      actor: "user-a",
      before: { at: Number(at), id: id ?? null },
    });
    expect(actions(second)).toEqual(["member.set", "version.save"]);
    expect(second.next_before).toBeNull();
  });
});
