import { describe, expect, it } from "vitest";
import { emptyCommitBatchStats } from "@/lib/db/commit-batcher";
import type { SqlClient, SqlExecutor, SqlParameter } from "@/lib/db/sql-client";
import { initialExecutionState } from "../../store/messages";
import { LeaseLost, StoppedByUser, ThreadTerminated } from "./errors";
import { RunMemory } from "./run-memory";
import { ThreadCommitter } from "./thread-committer";

/** A database that answers the row-lock read with `row` and records every other statement. */
function fakeDatabase(row: Record<string, unknown> | null) {
  const statements: { text: string; params: readonly SqlParameter[] }[] = [];
  const executor: SqlExecutor = {
    query: async <Row>(text: string, params: readonly SqlParameter[] = []) => {
      if (text.includes("FOR NO KEY UPDATE")) return (row ? [row] : []) as Row[];
      statements.push({ text, params });
      return [] as Row[];
    },
    exec: async () => {},
    defer: async (text, params = []) => {
      statements.push({ text, params });
    },
  };
  const client: SqlClient = {
    ...executor,
    transaction: (work) => work(executor),
    sequence: async () => [],
    commitStatement: async () => [],
    commitStats: () => emptyCommitBatchStats(false),
    observeCommitBatches: () => {},
  };
  return { client, statements };
}

const thread = (fields: Record<string, unknown> = {}) => ({
  id: "t1",
  root_id: "t1",
  parent_id: null,
  agent_name: "agent",
  status: "running",
  user_stopped: false,
  terminated_at: null,
  lease_owner: "me",
  message_seq: 4,
  execution: initialExecutionState(),
  created_at: 0,
  updated_at: 0,
  ...fields,
});

function committer(row: Record<string, unknown> | null) {
  const database = fakeDatabase(row);
  const memory = new RunMemory(database.client, {});
  const woken: string[] = [];
  const commits = new ThreadCommitter(database.client, "me", memory, {
    request: (parentId: string) => {
      woken.push(parentId);
    },
  });
  return { commits, memory, woken, statements: database.statements };
}

describe("ThreadCommitter.commit (locked path)", () => {
  it("runs the work on the locked row when this process holds the lease", async () => {
    const { commits } = committer(thread());
    await expect(commits.commit("t1", async (_tx, row) => row.id)).resolves.toBe("t1");
  });

  it("refuses a thread leased to another process, terminated, or gone", async () => {
    await expect(
      committer(thread({ lease_owner: "other" })).commits.commit("t1", async () => 1),
    ).rejects.toThrow(LeaseLost);
    await expect(committer(thread({ terminated_at: 5 })).commits.commit("t1", async () => 1)).rejects.toThrow(
      ThreadTerminated,
    );
    await expect(committer(null).commits.commit("t1", async () => 1)).rejects.toThrow(ThreadTerminated);
  });

  it("refuses a user-stopped thread unless the work handles the stop itself", async () => {
    const stopped = thread({ user_stopped: true });
    let ran = 0;
    const work = async () => {
      ran += 1;
      return ran;
    };
    await expect(committer(stopped).commits.commit("t1", work)).rejects.toThrow(StoppedByUser);
    expect(ran).toBe(0);
    await expect(committer(stopped).commits.commit("t1", work, { allowUserStopped: true })).resolves.toBe(1);
  });

  it("numbers messages after the locked row's message_seq and writes the seq it owes at the end", async () => {
    const { commits, statements } = committer(thread());
    const stored = await commits.commit("t1", async (tx) => {
      const messages = await commits.insert(tx, "t1", [
        { role: "user", side: "b", content: "hi" },
        { role: "assistant", side: "a", content: "hello" },
      ]);
      expect(await commits.nextSeq(tx, "t1")).toBe(7);
      return messages;
    });
    expect(stored.map((message) => message.seq)).toEqual([5, 6]);
    expect(statements.at(-1)).toEqual({
      text: "UPDATE threads SET message_seq = $2 WHERE id = $1",
      params: ["t1", 6],
    });
    expect(statements.some((statement) => statement.text.includes("SELECT message_seq"))).toBe(false);
  });

  it("hands the owed seq to the thread update instead of writing it on its own", async () => {
    const { commits, statements } = committer(thread());
    const changes = await commits.commit("t1", async (tx) => {
      await commits.insert(tx, "t1", [{ role: "user", side: "b", content: "hi" }]);
      return commits.withMessageSeq("t1", { statusText: "x" });
    });
    expect(changes).toEqual({ statusText: "x", messageSeq: 5 });
    expect(statements.some((statement) => statement.text.startsWith("UPDATE threads SET message_seq"))).toBe(
      false,
    );
  });

  it("keeps the cached history in step with the messages it inserts", async () => {
    const { commits, memory } = committer(thread());
    memory.cache("t1").history = { version: 4, messages: [] };
    await commits.commit("t1", (tx) =>
      commits.insert(tx, "t1", [{ role: "user", side: "b", content: "hi" }]),
    );
    expect(memory.peek("t1")?.history?.version).toBe(5);
    expect(memory.peek("t1")?.history?.messages.map((message) => message.content)).toEqual(["hi"]);
  });

  it("after a message changed in place, asks the database for the next seq", async () => {
    const { commits, statements, memory } = committer(thread());
    memory.cache("t1").history = { version: 4, messages: [] };
    await commits.commit("t1", async (tx) => {
      await commits.changedHistory(tx, "t1");
      await commits.nextSeq(tx, "t1").catch(() => 0);
    });
    expect(memory.peek("t1")?.history).toBeNull();
    expect(statements.some((statement) => statement.text.includes("SELECT message_seq + 1"))).toBe(true);
  });

  it("wakes the parents a report named once the commit is through, not when it fails", async () => {
    const { commits, woken } = committer(thread());
    await commits.commit("t1", async () => commits.wakeParentAfterCommit("p1"));
    expect(woken).toEqual(["p1"]);
    await expect(
      commits.commit("t1", async () => {
        commits.wakeParentAfterCommit("p2");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await commits.commit("t1", async () => {});
    expect(woken).toEqual(["p1"]);
  });
});
