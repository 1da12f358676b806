// The database layer on each backend: migrations, Prisma, raw SQL and notifications. PGlite always
// runs; the Postgres server case runs when DATABASE_URL names one (CI runs both modes).
import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import type { Database } from "./database";
import { applyMigrations, MigrationError, readMigrationFiles } from "./migrations";

describe.each(testDatabaseBackends())("database on %s", (backend) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("is fully migrated on open, and applying again changes nothing", async () => {
    const report = await applyMigrations(database.sql);
    expect(report.applied).toEqual([]);
    expect(report.alreadyApplied).toEqual(readMigrationFiles().map((migration) => migration.name));
    const rows = await database.sql.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.checksum)).toEqual(
      readMigrationFiles().map((migration) => migration.checksum),
    );
  });

  it("refuses a migration whose file changed after it was applied", async () => {
    const [first, ...rest] = readMigrationFiles();
    expect(first).toBeDefined();
    const tampered = { ...first!, sql: `${first!.sql}\n-- edited`, checksum: "0".repeat(64) };
    await expect(applyMigrations(database.sql, [tampered, ...rest])).rejects.toThrow(MigrationError);
  });

  it("stores projects and versions through Prisma, cascading deletes", async () => {
    const projectId = randomUUID();
    await database.prisma.project.create({
      data: {
        id: projectId,
        name: "Demo",
        currentVersion: 1,
        versions: {
          create: {
            id: randomUUID(),
            version: 1,
            graph: { nodes: [] },
            definitions: { agents: [] },
            diagnostics: [],
          },
        },
      },
    });
    const loaded = await database.prisma.project.findUnique({
      where: { id: projectId },
      include: { versions: true },
    });
    expect(loaded?.versions[0]?.definitions).toEqual({ agents: [] });
    await database.prisma.project.delete({ where: { id: projectId } });
    const [{ count }] = (await database.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM project_versions WHERE project_id = $1",
      [projectId],
    )) as [{ count: number }];
    expect(count).toBe(0);
  });

  it("runs SQL transactions that roll back on error", async () => {
    const projectId = randomUUID();
    await expect(
      database.sql.transaction(async (tx) => {
        await tx.query("INSERT INTO projects (id, name, current_version) VALUES ($1, 'x', 1)", [projectId]);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const rows = await database.sql.query("SELECT id FROM projects WHERE id = $1", [projectId]);
    expect(rows).toEqual([]);
  });

  it("delivers notifications to listeners, only after commit, until they unsubscribe", async () => {
    const received: string[] = [];
    let wake: () => void = () => {};
    const unsubscribe = await database.notifications.listen("tandem_test", (payload) => {
      received.push(payload);
      wake();
    });
    const next = () => new Promise<void>((resolve) => (wake = resolve));

    let arrived = next();
    await database.notifications.notify("tandem_test", "first");
    await arrived;
    expect(received).toEqual(["first"]);

    arrived = next();
    await database.sql.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('tandem_test', 'in-transaction')");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toEqual(["first"]); // not before commit
    });
    await arrived;
    expect(received).toEqual(["first", "in-transaction"]);

    await unsubscribe();
    await database.notifications.notify("tandem_test", "after-unsubscribe");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual(["first", "in-transaction"]);
  });

  it("rejects notification channels and payloads Postgres would refuse", async () => {
    await expect(database.notifications.notify("Bad Channel", "x")).rejects.toThrow(/snake_case/);
    await expect(database.notifications.notify("ok_channel", "x".repeat(9000))).rejects.toThrow(/send an id/);
  });

  if (backend === "postgres")
    it("sends a transaction's deferred statements and its COMMIT to the server in one write", async () => {
      const table = `pipeline_${randomUUID().replaceAll("-", "")}`;
      await database.sql.exec(`CREATE TABLE ${table} (id int PRIMARY KEY, body text NOT NULL)`);
      const writes: number[] = [];
      const prototype = net.Socket.prototype as unknown as Record<
        "_write" | "_writev",
        (...args: unknown[]) => void
      >;
      const originals = { _write: prototype._write, _writev: prototype._writev };
      for (const method of ["_write", "_writev"] as const)
        prototype[method] = function counted(this: net.Socket, ...args: unknown[]) {
          writes.push(performance.now());
          return originals[method].apply(this, args);
        };
      // The second run is measured: postgres.js prepares a statement on its first use on a
      // connection, waiting for the server's description before it sends anything after it.
      let readAt = 0;
      let measuredFrom = 0;
      try {
        for (const run of [0, 1]) {
          measuredFrom = writes.length;
          await database.sql.transaction(async (tx) => {
            await tx.query("SELECT 1");
            readAt = writes.length - measuredFrom;
            // Each statement is over 1 KiB, which postgres.js alone writes one by one.
            for (let id = 1; id <= 3; id += 1)
              await tx.defer(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [
                run * 10 + id,
                "x".repeat(2_000),
              ]);
          });
        }
      } finally {
        Object.assign(prototype, originals);
      }
      expect(readAt).toBe(1); // BEGIN and the read went out together
      expect(writes.length - measuredFrom - readAt).toBe(1); // three inserts and the COMMIT together
      const rows = await database.sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
      expect(rows[0]?.count).toBe(6);
      await database.sql.exec(`DROP TABLE ${table}`);
    });
});
