// Guards the lifecycles of runtime/store/: no product code but the thread lifecycle
// (thread-lifecycle.ts, and the row writer it calls, thread-store.ts) writes `threads.status`,
// `user_stopped` or `terminated_at`, in TypeScript or in SQL, and no migration trigger writes the
// status; `runnable` and the lease are written only there and by the scheduling transitions
// (thread-scheduling.ts); each other status column only by its own lifecycle module and that table's
// row writer (COLUMN_GUARDS). A new writer fails this test; move it into a named transition instead.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ThreadChanges } from "@/runtime/store/thread-store";

const repo = path.resolve(import.meta.dirname, "..");
/** Product code and tooling (bench/ and test/ build fixture rows directly, like a test). */
const SCANNED = ["app", "components", "lib", "runtime", "scripts"];
/** The lifecycle and the row writer it calls. */
const ALLOWED = new Set(["runtime/store/thread-lifecycle.ts", "runtime/store/thread-store.ts"]);
/**
 * The other guarded columns: per table, the columns and the only files that may write them in SQL.
 * `pending`: writers in files other helpers are converting, each with the transition it should call;
 * the test fails when one of them no longer writes (remove it here) as well as on any new writer.
 */
const COLUMN_GUARDS: {
  table: string;
  columns: string[];
  writers: string[];
  pending: Record<string, string>;
}[] = [
  {
    table: "threads",
    columns: ["runnable", "lease_owner", "lease_expires_at"],
    writers: [...ALLOWED, "runtime/store/thread-scheduling.ts"],
    pending: {},
  },
  {
    table: "subagents",
    columns: ["status"],
    writers: ["runtime/store/registry-lifecycle.ts"],
    pending: {},
  },
  {
    table: "subagent_invocations",
    columns: ["status"],
    writers: ["runtime/store/invocation-lifecycle.ts"],
    pending: {},
  },
  {
    table: "scheduled_effects",
    columns: ["status"],
    writers: ["runtime/store/effect-lifecycle.ts", "runtime/store/effect-store.ts"],
    pending: {},
  },
  {
    table: "tool_approvals",
    columns: ["state"],
    writers: ["runtime/store/approval-lifecycle.ts", "runtime/store/approval-store.ts"],
    pending: {},
  },
];

/** The columns of `columns` that SQL in `source` sets on rows of `table` (UPDATE … SET). */
function columnWritesIn(source: string, table: string, columns: readonly string[]): string[] {
  const found: string[] = [];
  const update = new RegExp(
    `UPDATE\\s+"?${table}"?\\s[\\s\\S]*?(?=\\bWHERE\\b|\\bRETURNING\\b|\`|;|$)`,
    "gi",
  );
  const column = new RegExp(`(?<![\\w.])"?(${columns.join("|")})"?\\s*=(?!=)`, "gi");
  for (const match of source.matchAll(update)) {
    for (const set of match[0].matchAll(column)) found.push(`UPDATE ${table} sets ${set[1]}`);
  }
  return found;
}

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

  it("finds the writes of the other guarded columns (the probes)", () => {
    expect(
      columnWritesIn("UPDATE threads SET runnable = true WHERE id = $1", "threads", ["runnable"]),
    ).toEqual(["UPDATE threads sets runnable"]);
    expect(
      columnWritesIn(
        "UPDATE threads SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1",
        "threads",
        ["runnable", "lease_owner", "lease_expires_at"],
      ),
    ).toHaveLength(2);
    expect(
      columnWritesIn(
        "UPDATE subagent_invocations i SET status = $2, result = $3 WHERE i.id = $1",
        "subagent_invocations",
        ["status"],
      ),
    ).toHaveLength(1);
    expect(
      columnWritesIn("UPDATE tool_approvals SET state = 'denied' WHERE id = $1", "tool_approvals", ["state"]),
    ).toHaveLength(1);
    // Not writes: reads, other tables, the WHERE.
    expect(columnWritesIn("SELECT id FROM threads WHERE runnable = true", "threads", ["runnable"])).toEqual(
      [],
    );
    expect(
      columnWritesIn("UPDATE eval_runs SET lease_owner = $1 WHERE id = $2", "threads", ["lease_owner"]),
    ).toEqual([]);
    expect(
      columnWritesIn("UPDATE threads SET message_seq = $2 WHERE id = $1 AND runnable = true", "threads", [
        "runnable",
      ]),
    ).toEqual([]);
  });

  for (const guard of COLUMN_GUARDS) {
    it(`has no writer of ${guard.table}.${guard.columns.join(" / ")} outside its lifecycle (${guard.writers.join(", ")})`, async () => {
      const offenders: Record<string, string> = {};
      for (const folder of SCANNED) {
        for (const file of await sourceFiles(folder)) {
          if (guard.writers.includes(file)) continue;
          const writes = columnWritesIn(
            await readFile(path.join(repo, file), "utf8"),
            guard.table,
            guard.columns,
          );
          if (writes.length > 0) offenders[file] = guard.pending[file] ?? writes.join("; ");
        }
      }
      expect(offenders, "each writer left is pending its switch to the named transition").toEqual(
        guard.pending,
      );
    });
  }

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
