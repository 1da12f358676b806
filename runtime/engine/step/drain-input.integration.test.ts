// The drain of a replayed thread takes exactly the inputs its plan names (runtime/engine/step/
// replay-gate.ts), also one that arrived after the step read the thread's row: a child's report
// commits into the inbox without moving the parent's row (its wake-up comes after), so the drain's
// speculative commit still passes its version check. Deterministic: the report is inserted between
// the read and the drain.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { insertTestProject, insertTestThread } from "@/test/support/thread-rows";
import { insertInboxItem } from "../../store/inbox";
import { findThreadForStep } from "../../store/thread-store";
import { drainInput } from "./drain-input";
import { RunMemory } from "./run-memory";
import { ThreadCommitter } from "./thread-committer";
import type { RunnerContext } from "./types";

describe.each(testDatabaseBackends())("draining input read before the drain on %s", (backend) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  function report(text: string) {
    return {
      messageId: randomUUID(),
      role: "user" as const,
      content: text,
      silent: false,
      fromHuman: false,
      metadata: { subagent_id: randomUUID() },
      attachments: [],
    };
  }

  /** A leased idle thread with report "first" waiting, read for its step; then "late" arrives. */
  async function readThenReportArrives() {
    const projectId = await insertTestProject(database.sql);
    const id = await insertTestThread(database.sql, projectId);
    await database.sql.query(
      "UPDATE threads SET lease_owner = 'me', lease_expires_at = now() + interval '1 hour' WHERE id = $1",
      [id],
    );
    const first = await insertInboxItem(database.sql, id, report("first"));
    const found = await findThreadForStep(database.sql, id);
    if (!found || !first) throw new Error("no thread");
    expect(found.pendingInput?.map((item) => item.id)).toEqual([first.id]);
    const late = await insertInboxItem(database.sql, id, report("late"));
    if (!late) throw new Error("no report");
    const memory = new RunMemory(database.sql, {});
    const commits = new ThreadCommitter(database.sql, "me", memory, undefined);
    commits.expect(found);
    // What drainInput uses of a runner's context: the committer and the run memory (no definitions).
    const ctx = { db: database.sql, commits, memory } as unknown as RunnerContext;
    const drain = (only: readonly string[] | null) =>
      commits.commit(id, (tx, row, read) => drainInput(ctx, tx, row, null, read, only), {
        allowUserStopped: true,
        speculate: true,
        readBack: true,
      });
    return { id, first, late, drain };
  }

  async function unconsumed(id: string): Promise<string[]> {
    const rows = await database.sql.query<{ id: string }>(
      "SELECT id FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL ORDER BY seq",
      [id],
    );
    return rows.map((row) => String(row.id));
  }

  it("takes a planned input that the row's read had not seen, in the plan's order", async () => {
    const { id, first, late, drain } = await readThenReportArrives();
    const drained = await drain([late.id, first.id]);
    expect(drained.kind).toBe("run");
    if (drained.kind !== "run") return;
    expect(drained.drained.map((message) => message.content)).toEqual(["late", "first"]);
    expect(await unconsumed(id)).toEqual([]);
    const stored = await database.sql.query<{ content: unknown }>(
      "SELECT content FROM messages WHERE thread_id = $1 ORDER BY seq",
      [id],
    );
    expect(stored.map((row) => row.content)).toEqual(["late", "first"]);
  });

  it("leaves an input the plan does not name for a later drain", async () => {
    const { id, first, late, drain } = await readThenReportArrives();
    const drained = await drain([first.id]);
    expect(drained.kind === "run" && drained.drained.map((message) => message.content)).toEqual(["first"]);
    expect(await unconsumed(id)).toEqual([late.id]);
  });

  it("without a plan, takes what the row's read saw and leaves the late input waiting", async () => {
    const { id, late, drain } = await readThenReportArrives();
    const drained = await drain(null);
    expect(drained.kind === "run" && drained.drained.map((message) => message.content)).toEqual(["first"]);
    expect(await unconsumed(id)).toEqual([late.id]);
  });
});
