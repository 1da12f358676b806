// A message posted to a thread that parked in this process (ThreadService.postMessage): the post's
// one statement stores the message and starts the run, as the thread's drain would have, when the
// thread is exactly as it parked here; otherwise the message is queued and drained as before. Either
// way the message is stored once, in order, and answered once. On each backend: PGlite always,
// Postgres too when DATABASE_URL names a server.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chatBundle } from "@/test/support/bench-bundles";
import { testDatabaseBackends } from "../../test/support/open-database";
import { useStartedRuntime } from "../../test/support/started-runtime";
import { readEventsAfter } from "../store/event-log";
import { insertInboxItem } from "../store/inbox";

describe.each(testDatabaseBackends())("a message posted to a thread parked here on %s", (backend) => {
  const subject = useStartedRuntime(backend);

  const threadRow = async (threadId: string) =>
    (
      await subject.database.sql.query<{
        status: string;
        lease_owner: string | null;
        message_seq: number;
        execution: unknown;
      }>("SELECT status, lease_owner, message_seq, execution FROM threads WHERE id = $1", [threadId])
    )[0]!;
  const settled = async (threadId: string) => {
    for (let waited = 0; waited < 15_000; waited += 20) {
      const row = await threadRow(threadId);
      if (row.status !== "running" && row.status !== "queued" && row.lease_owner === null) return row;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`thread ${threadId} did not settle`);
  };
  const messagesOf = (threadId: string) =>
    subject.database.sql.query<{ seq: number; role: string; side: string | null; content: string }>(
      "SELECT seq, role, side, content FROM messages WHERE thread_id = $1 ORDER BY seq",
      [threadId],
    );
  const parkedChat = async (delayMs = 0) => {
    const project = await subject.runtime.projects.create({
      name: `posted ${randomUUID()}`,
      definitions: chatBundle(4, delayMs),
    });
    const { threadId } = await subject.runtime.threads.create({
      projectId: project.id,
      agentName: "chat",
      message: "hello",
    });
    expect((await settled(threadId)).status).toBe("idle");
    return threadId;
  };

  it("stores the message and starts the run in the post: no drain, its input recorded consumed", async () => {
    const threadId = await parkedChat(400);
    const before = await readEventsAfter(subject.database.sql, threadId, 0);
    const posted = await subject.runtime.threads.postMessage(threadId, { content: "again" });
    // At once, while the model call waits: the message is in the history (a human's, side B), the
    // run started on side A and the thread is leased to this process; nothing waits in the inbox.
    const running = await threadRow(threadId);
    expect(running.status).toBe("running");
    expect(running.lease_owner).not.toBeNull();
    expect(running.message_seq).toBe(3);
    const execution =
      typeof running.execution === "string" ? JSON.parse(running.execution) : running.execution;
    expect(execution).toMatchObject({
      currentSide: "a",
      turnStartSeq: 3,
      turnSteps: 0,
      runSteps: 0,
      turnsB: 2,
    });
    expect((await messagesOf(threadId)).at(-1)).toEqual({
      seq: 3,
      role: "user",
      side: "b",
      content: "again",
    });
    const inbox = await subject.database.sql.query<{ id: string; consumed: boolean }>(
      "SELECT id, consumed_at IS NOT NULL AS consumed FROM inbox_items WHERE thread_id = $1 ORDER BY seq",
      [threadId],
    );
    expect(inbox).toHaveLength(2);
    expect(inbox.every((item) => item.consumed)).toBe(true);
    expect(inbox[1]!.id).toBe(posted.queueId);
    // The message's event, then the thread's (running), as one drain's commit appends them.
    const after = await readEventsAfter(subject.database.sql, threadId, 0);
    const added = after.events.slice(before.events.length);
    expect(added.map((event) => event.type)).toEqual(["message", "thread"]);
    expect((added[0]!.data as { message: { id: string; seq: number } }).message).toMatchObject({
      id: posted.messageId,
      seq: 3,
    });
    expect((added[1]!.data as { status: string }).status).toBe("running");
    // Then the turn: one answer to the posted question, from the history the post extended.
    expect((await settled(threadId)).status).toBe("idle");
    expect((await messagesOf(threadId)).map((message) => [message.seq, message.content])).toEqual([
      [1, "hello"],
      [2, "Answer 1 to: hello"],
      [3, "again"],
      [4, "Answer 2 to: again"],
    ]);
  });

  it("queues the message for a thread stopped by its user since it parked: the drain lifts the stop", async () => {
    const threadId = await parkedChat();
    await subject.runtime.threads.stop(threadId);
    await subject.runtime.threads.postMessage(threadId, { content: "go on" });
    expect((await settled(threadId)).status).toBe("idle");
    const contents = (await messagesOf(threadId))
      .filter((message) => message.role !== "system")
      .map((message) => message.content);
    expect(contents).toEqual(["hello", "Answer 1 to: hello", "go on", "Answer 2 to: go on"]);
  });

  it("queues the message behind input already waiting, and drains both in order", async () => {
    const threadId = await parkedChat();
    // Input that arrived since the thread parked (as a report being delivered would be), not yet
    // drained: the post must not store its message ahead of it.
    await insertInboxItem(subject.database.sql, threadId, {
      role: "user",
      content: "waiting first",
      attachments: [],
      silent: false,
      metadata: {},
      fromHuman: true,
      messageId: randomUUID(),
      external: true,
    });
    await subject.runtime.threads.postMessage(threadId, { content: "posted second" });
    expect((await settled(threadId)).status).toBe("idle");
    expect((await messagesOf(threadId)).map((message) => message.content)).toEqual([
      "hello",
      "Answer 1 to: hello",
      "waiting first",
      "posted second",
      "Answer 2 to: posted second",
    ]);
  });

  it("queues the message for a thread another process changed since it parked here", async () => {
    const threadId = await parkedChat();
    // Another process appended a message (any change of the history moves message_seq).
    await subject.database.sql.query(
      `WITH bumped AS (UPDATE threads SET message_seq = message_seq + 1 WHERE id = $1 RETURNING message_seq)
       INSERT INTO messages (id, thread_id, seq, role, side, content, created_at)
       SELECT $2, $1, bumped.message_seq, 'assistant', 'a', 'Added elsewhere.', $3 FROM bumped`,
      [threadId, randomUUID(), Date.now() * 1000],
    );
    await subject.runtime.threads.postMessage(threadId, { content: "and now" });
    expect((await settled(threadId)).status).toBe("idle");
    expect((await messagesOf(threadId)).map((message) => [message.seq, message.content])).toEqual([
      [1, "hello"],
      [2, "Answer 1 to: hello"],
      [3, "Added elsewhere."],
      [4, "and now"],
      [5, "Answer 2 to: and now"],
    ]);
  });

  it("stores two messages posted at once to the parked thread once each, and answers them", async () => {
    const threadId = await parkedChat(200);
    await Promise.all([
      subject.runtime.threads.postMessage(threadId, { content: "one" }),
      subject.runtime.threads.postMessage(threadId, { content: "two" }),
    ]);
    for (let waited = 0; waited < 15_000; waited += 20) {
      if ((await messagesOf(threadId)).length >= 6) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await settled(threadId)).status).toBe("idle");
    const messages = await messagesOf(threadId);
    expect(new Set(messages.map((message) => message.seq)).size).toBe(messages.length);
    // One stored by its post and answered; the other queued behind that run, drained after its
    // answer, and answered in turn: each once, in the order they were stored.
    const [first, second] = messages.slice(2).filter((message) => message.role === "user");
    expect([first?.content, second?.content].sort()).toEqual(["one", "two"]);
    expect(messages.map((message) => message.content)).toEqual([
      "hello",
      "Answer 1 to: hello",
      first?.content,
      `Answer 2 to: ${first?.content}`,
      second?.content,
      `Answer 3 to: ${second?.content}`,
    ]);
  });
});
