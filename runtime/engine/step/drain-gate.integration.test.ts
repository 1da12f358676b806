// A drain commit the step goes on from before it is through (runtime/engine/step/drain-gate.ts):
// `drainInFlight` hands the work's result over once a speculative commit has been sent, and its gate
// says afterwards whether that very result was committed. A retry under the row lock (someone moved
// the row meanwhile) commits another result: the gate says no. A commit that fails makes the gate
// fail the same way. A commit that was not speculative hands its result over only once it is through.
//
// Then the step's side of it, on Postgres only: a chat thread's model call starts while the drain
// commit is still on its way, so the posted message reaches the provider a commit's round trip
// earlier; the streamed text reaches watchers only once the drain is durable; a call whose drain
// fails is aborted, shows no text, and is made again when the thread runs again. The test holds a
// lock on `messages` from its own connection so that the drain waits (PGlite's one connection
// cannot). The provider is a local OpenAI-compatible server.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/database";
import { type FakeOpenAIServer, startFakeOpenAIServer, textReply } from "@/test/support/fake-openai-server";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { insertTestProject, insertTestThread } from "@/test/support/thread-rows";
import { createRuntime, type Runtime } from "../../runtime";
import { findThreadForStep, updateLockedThread } from "../../store/thread-store";
import { drainInFlight } from "./drain-gate";
import { LeaseLost } from "./errors";
import { RunMemory } from "./run-memory";
import { ThreadCommitter } from "./thread-committer";

describe.each(testDatabaseBackends())("a drain commit still on its way on %s", (backend) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function leasedThread(known: boolean) {
    const projectId = await insertTestProject(database.sql);
    const id = await insertTestThread(database.sql, projectId);
    await database.sql.query(
      "UPDATE threads SET lease_owner = 'me', lease_expires_at = now() + interval '1 hour' WHERE id = $1",
      [id],
    );
    const committer = new ThreadCommitter(database.sql, "me", new RunMemory(database.sql, {}), undefined);
    const found = await findThreadForStep(database.sql, id);
    if (!found) throw new Error("no thread");
    if (known) committer.expect(found);
    return { id, committer };
  }

  /**
   * A drain-like commit (a message and a status line) of a thread this runner holds; `firstTry`
   * runs from inside the first try's work, before its check goes out (another writer moving the row).
   */
  async function drain(options: { known: boolean; firstTry?: (id: string) => Promise<void> }) {
    const { id, committer } = await leasedThread(options.known);
    let tries = 0;
    let committing: Promise<{ attempt: number }> | null = null;
    const handed = await drainInFlight<{ attempt: number }>((inFlight) => {
      committing = committer.commit(
        id,
        async (tx, row) => {
          tries += 1;
          const attempt = tries;
          if (attempt === 1) await options.firstTry?.(id);
          await committer.insert(tx, id, [{ role: "user", side: "b", content: `drained by try ${attempt}` }]);
          await updateLockedThread(tx, row, committer.withMessageSeq(id, { statusText: `try ${attempt}` }));
          return { attempt };
        },
        { speculate: true, readBack: true, inFlight },
      );
      return committing;
    });
    const stored = async () =>
      (
        await database.sql.query<{ content: string }>(
          "SELECT content FROM messages WHERE thread_id = $1 ORDER BY seq",
          [id],
        )
      ).map((row) => row.content);
    return { handed, committing: committing as unknown as Promise<{ attempt: number }>, stored };
  }

  it("hands a speculative commit's result over while it is on its way, and confirms it", async () => {
    const { handed, committing, stored } = await drain({ known: true });
    expect(handed.result).toEqual({ attempt: 1 });
    expect(handed.gate).not.toBeNull();
    await expect(handed.gate!.confirmed()).resolves.toBe(true);
    await expect(committing).resolves.toBe(handed.result);
    expect(await stored()).toEqual(["drained by try 1"]);
  });

  it("says no when a retry under the lock committed another drain", async () => {
    const { handed, committing, stored } = await drain({
      known: true,
      firstTry: async (id) => {
        await database.sql.query("UPDATE threads SET status_text = 'moved' WHERE id = $1", [id]);
      },
    });
    // The first try's result went out; that try rolled back, the second committed.
    expect(handed.result).toEqual({ attempt: 1 });
    expect(handed.gate).not.toBeNull();
    await expect(handed.gate!.confirmed()).resolves.toBe(false);
    await expect(committing).resolves.toEqual({ attempt: 2 });
    expect(await stored()).toEqual(["drained by try 2"]);
  });

  it("fails as the commit did when the thread was taken meanwhile", async () => {
    const { handed, stored } = await drain({
      known: true,
      firstTry: async (id) => {
        await database.sql.query("UPDATE threads SET lease_owner = 'someone else' WHERE id = $1", [id]);
      },
    });
    expect(handed.gate).not.toBeNull();
    await expect(handed.gate!.confirmed()).rejects.toBeInstanceOf(LeaseLost);
    await handed.gate!.settled(); // never rejects
    expect(await stored()).toEqual([]);
  });

  it("hands a commit that was not speculative over only once it is through, without a gate", async () => {
    const { handed, stored } = await drain({ known: false });
    expect(handed.gate).toBeNull();
    expect(handed.result).toEqual({ attempt: 1 });
    expect(await stored()).toEqual(["drained by try 1"]);
  });
});

const KEY_VARIABLE = "DRAIN_TEST_PROVIDER_KEY";
const USAGE = { prompt_tokens: 10, completion_tokens: 2 };

describe.each(testDatabaseBackends().filter((backend) => backend === "postgres"))(
  "a model call while its drain commits on %s",
  (backend) => {
    let provider: FakeOpenAIServer;
    /** Call numbers (from 0) the provider streams slowly, so that they can be dropped midway. */
    const slowCalls = new Set<number>();
    let opened: Database | null = null;
    let runtime: Runtime | null = null;

    beforeAll(async () => {
      process.env[KEY_VARIABLE] = "sk-local";
      provider = await startFakeOpenAIServer((_request, index) =>
        slowCalls.has(index)
          ? {
              ...textReply("local-model", ["Slow ", "answer ", "number ", String(index)], USAGE),
              pauseMs: 300,
            }
          : textReply("local-model", ["Answer ", String(index)], USAGE),
      );
    });
    afterAll(async () => {
      delete process.env[KEY_VARIABLE];
      await provider?.close();
    });
    afterEach(async () => {
      await runtime?.scheduler.stop();
      await opened?.close();
      runtime = null;
      opened = null;
      provider.requests.length = 0;
      provider.aborted.length = 0;
      slowCalls.clear();
    });

    /** An idle chat thread that has answered "first"; every chunk published for it is recorded. */
    async function answeredChat() {
      opened = await openTestDatabase(backend);
      runtime = createRuntime(opened);
      await runtime.scheduler.start();
      const project = await runtime.projects.create({
        name: "in flight",
        definitions: {
          agents: [{ name: "chat", type: "ai_human", sideA: { label: "Assistant", prompt: "chat_prompt" } }],
          prompts: [
            {
              name: "chat_prompt",
              toolDescription: "c",
              prompt: "Answer.",
              model: "local",
              includeChat: true,
            },
          ],
          models: [
            {
              name: "local",
              provider: "openai-compatible",
              model: "local-model",
              baseURL: provider.baseURL,
              apiKeyEnv: KEY_VARIABLE,
            },
          ],
          tools: [],
        },
      });
      const { threadId } = await runtime.threads.create({
        projectId: project.id,
        agentName: "chat",
        message: "first",
      });
      const db = opened;
      const status = async () =>
        (await db.sql.query<{ status: string }>("SELECT status FROM threads WHERE id = $1", [threadId]))[0]
          ?.status;
      await vi.waitFor(async () => expect(await status()).toBe("idle"), { timeout: 20_000, interval: 20 });
      const chunks: { messageId: string; text: string }[] = [];
      runtime.events.subscribeChunks(threadId, (chunk) =>
        chunks.push({ messageId: chunk.messageId, text: chunk.chunk }),
      );
      const conversation = async () =>
        db.sql.query<{ id: string; role: string; content: string }>(
          "SELECT id, role, content FROM messages WHERE thread_id = $1 ORDER BY seq",
          [threadId],
        );
      return { db, runtime, threadId, chunks, status, conversation };
    }

    /** Backends of this database waiting for a lock (the drain, held up by the test's lock). */
    const waitingForLock = async (db: Database) =>
      (
        await db.sql.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        )
      ).map((row) => row.pid);

    it("starts the call before the drain is through and shows its text once it is", async () => {
      const { db, runtime, threadId, chunks, status, conversation } = await answeredChat();
      await db.sql.transaction(async (tx) => {
        // Inserts into messages (the drain's) wait until this transaction ends.
        await tx.query("LOCK TABLE messages IN EXCLUSIVE MODE");
        await runtime.threads.postMessage(threadId, { content: "second" });
        await vi.waitFor(() => expect(provider.requests).toHaveLength(2), { timeout: 10_000, interval: 5 });
        // The provider has the new message while the drain that stores it still waits.
        expect(JSON.stringify(provider.requests[1]?.messages)).toContain("second");
        expect(await waitingForLock(db)).toHaveLength(1);
        // The answer is streamed in full meanwhile; none of its text is shown yet.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(chunks).toEqual([]);
      });
      await vi.waitFor(async () => expect(await status()).toBe("idle"), { timeout: 20_000, interval: 20 });
      const messages = await conversation();
      expect(messages.map((message) => message.content)).toEqual(["first", "Answer 0", "second", "Answer 1"]);
      expect(provider.requests).toHaveLength(2);
      // Shown once the drain committed, all of it, as the stored reply's message.
      expect(chunks.map((chunk) => chunk.text).join("")).toBe("Answer 1");
      expect(new Set(chunks.map((chunk) => chunk.messageId))).toEqual(new Set([messages[3]!.id]));
    });

    it("aborts the call when its drain fails, shows none of it, and calls again when the thread runs again", async () => {
      const { db, runtime, threadId, chunks, status, conversation } = await answeredChat();
      slowCalls.add(1);
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        await db.sql.transaction(async (tx) => {
          await tx.query("LOCK TABLE messages IN EXCLUSIVE MODE");
          await runtime.threads.postMessage(threadId, { content: "second" });
          await vi.waitFor(() => expect(provider.requests).toHaveLength(2), { timeout: 10_000, interval: 5 });
          const [drain] = await waitingForLock(db);
          expect(drain).toBeDefined();
          // The drain's statement fails: the call on its way belongs to no step any more.
          await db.sql.query("SELECT pg_cancel_backend($1)", [drain!]);
          await vi.waitFor(() => expect(provider.aborted).toEqual([1]), { timeout: 10_000, interval: 5 });
        });
        await vi.waitFor(
          async () => expect((await conversation()).map((message) => message.content)).toContain("Answer 2"),
          { timeout: 20_000, interval: 20 },
        );
        await vi.waitFor(async () => expect(await status()).toBe("idle"), { timeout: 20_000, interval: 20 });
      } finally {
        errors.mockRestore();
      }
      const messages = await conversation();
      expect(messages.map((message) => message.content)).toEqual(["first", "Answer 0", "second", "Answer 2"]);
      expect(provider.requests).toHaveLength(3);
      // Only the reply that was kept was ever shown.
      expect(chunks.map((chunk) => chunk.text).join("")).toBe("Answer 2");
      expect(new Set(chunks.map((chunk) => chunk.messageId))).toEqual(new Set([messages[3]!.id]));
      const [logged] = await db.sql.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM model_calls WHERE thread_id = $1",
        [threadId],
      );
      expect(logged?.count).toBe(2);
    });
  },
);
