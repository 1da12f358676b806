// Guards the thread lifecycle (runtime/store/thread-lifecycle.ts): no product code but that module
// (and the row writer it calls, thread-store.ts) writes `threads.status`, `user_stopped` or
// `terminated_at`, in TypeScript or in SQL, and no migration trigger writes the status. A new writer
// fails this test; move it into a transition of the lifecycle table instead.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ThreadChanges } from "@/runtime/store/thread-store";

const repo = path.resolve(import.meta.dirname, "..");
/** Product code and tooling (bench/ and test/ build fixture rows directly, like a test). */
const SCANNED = ["app", "components", "lib", "runtime", "scripts"];
/** The lifecycle and the row writer it calls. */
const ALLOWED = new Set(["runtime/store/thread-lifecycle.ts", "runtime/store/thread-store.ts"]);
/** What only the lifecycle may call: the status-writing forms of the row writer. */
const STATUS_WRITERS =
  /\b(updateThreadStatus|updateLockedThreadStatus|insertThreadRows|insertThreadCopyRows|StatusWrite)\b/;

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(path.join(repo, folder), { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === "node_modules" || entry.name === "generated") continue;
      files.push(...(await sourceFiles(relative)));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      files.push(relative);
    }
  }
  return files;
}

/**
 * The status writes in `source`: SQL that sets the status of a thread row (UPDATE threads … SET …
 * status =, or an INSERT INTO threads naming status, user_stopped or terminated_at), and calls of
 * the lifecycle's own row writers.
 */
function statusWritesIn(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/UPDATE\s+"?threads"?\s[\s\S]*?(?=\bWHERE\b|\bRETURNING\b|`|;|$)/gi)) {
    const set = match[0];
    const column = set.match(/(?<![\w.])"?(status|user_stopped|terminated_at)"?\s*=(?!=)/i);
    if (column) found.push(`UPDATE threads sets ${column[1]}`);
  }
  for (const match of source.matchAll(/INSERT\s+INTO\s+"?threads"?\s*\(([^)]*)\)/gi)) {
    if (/\b(status|user_stopped|terminated_at)\b/i.test(match[1]!))
      found.push("INSERT INTO threads names status");
  }
  for (const match of source.matchAll(/\bNEW\."?(status|user_stopped|terminated_at)"?\s*:=/gi)) {
    found.push(`trigger assigns NEW.${match[1]}`);
  }
  const writer = source.match(STATUS_WRITERS);
  if (writer) found.push(`uses ${writer[1]}`);
  return found;
}

describe("thread status writes", () => {
  it("finds the writes it guards against (the probes)", () => {
    expect(
      statusWritesIn("await tx.query(\"UPDATE threads SET status = 'idle' WHERE id = $1\", [id]);"),
    ).toEqual(["UPDATE threads sets status"]);
    expect(
      statusWritesIn(
        "`UPDATE threads SET runnable = true,\n status = CASE WHEN x THEN 'queued' END WHERE id = $1`",
      ),
    ).toHaveLength(1);
    expect(statusWritesIn("UPDATE threads SET user_stopped = false WHERE id = $1")).toHaveLength(1);
    expect(statusWritesIn("INSERT INTO threads (id, status) VALUES ($1, 'idle')")).toHaveLength(1);
    expect(statusWritesIn("NEW.\"status\" := 'queued';")).toHaveLength(1);
    expect(statusWritesIn('import { updateThreadStatus } from "../store/thread-store";')).toHaveLength(1);
    // Not writes of a thread's status: other tables, other columns, reads.
    expect(statusWritesIn("UPDATE subagents SET status = $2 WHERE child_id = $1")).toEqual([]);
    expect(statusWritesIn("UPDATE threads SET status_text = $2 WHERE id = $1")).toEqual([]);
    expect(statusWritesIn("UPDATE threads SET runnable = true WHERE id = $1 AND status = 'idle'")).toEqual(
      [],
    );
    expect(statusWritesIn("SELECT count(*) FROM threads WHERE status IN ('queued', 'running')")).toEqual([]);
  });

  it("has no writer of a thread's status outside runtime/store/thread-lifecycle.ts", async () => {
    const offenders: string[] = [];
    for (const folder of SCANNED) {
      for (const file of await sourceFiles(folder)) {
        if (ALLOWED.has(file)) continue;
        for (const write of statusWritesIn(await readFile(path.join(repo, file), "utf8"))) {
          offenders.push(`${file}: ${write}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("has no migration trigger that writes a thread's status", async () => {
    const folder = path.join(repo, "prisma", "migrations");
    const offenders: string[] = [];
    for (const migration of await readdir(folder, { withFileTypes: true })) {
      if (!migration.isDirectory()) continue;
      const sql = await readFile(path.join(folder, migration.name, "migration.sql"), "utf8").catch(() => "");
      for (const write of statusWritesIn(sql)) offenders.push(`${migration.name}: ${write}`);
    }
    expect(offenders).toEqual([]);
  });

  it("keeps the status out of the changes any caller may pass (tsc checks the expectations below)", () => {
    // @ts-expect-error the status changes only through a transition of the lifecycle table
    const status: ThreadChanges = { status: "idle" };
    // @ts-expect-error user_stopped changes with stopByUser / startRun only
    const userStopped: ThreadChanges = { userStopped: true };
    // @ts-expect-error terminated_at is set by terminate only
    const terminatedAt: ThreadChanges = { terminatedAt: 1 };
    expect([status, userStopped, terminatedAt]).toHaveLength(3);
  });
});
