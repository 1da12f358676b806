// A chat survives a crash right after a post stored its message (docs/runtime.md "A message posted to
// a thread parked here"): the server SIGKILLs itself once the post's statement committed the message
// and started the run, before the run begins. After a restart, the thread (leased to the dead
// process) is taken over once its lease expires and answers the message exactly once.
import { describe, expect, it } from "vitest";
import { chatBundle } from "../support/bench-bundles";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";
import { checkInvariants } from "./invariants";

// Short leases so the killed server's thread is reclaimed quickly after the restart.
const fixture = testServerForFile({ TANDEM_LEASE_MS: "1500", TANDEM_HOOK_TIMEOUT_MS: "1000" });
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

describe("a message posted to a thread parked here survives a crash", () => {
  it("right after the post stored it (after_post_commit): answered once after the restart", async () => {
    await fixture.server.restart({ TANDEM_CRASH_AT: "after_post_commit@chat" });
    const projectId = await projectWith(chatBundle(2));
    // Created, answered and parked in this server process: the next post stores its message itself.
    const threadId = await startThread(projectId, "chat", "hello");
    await waitFor(threadId, ["idle"]);
    // The server dies before it answers the post (the message is committed all the same).
    await api("POST", `/api/threads/${threadId}/messages`, { content: "again" }).catch(() => null);
    await fixture.server.exited(30_000);
    expect(fixture.server.output()).toContain("crash point after_post_commit");
    await fixture.server.restart({ TANDEM_CRASH_AT: "" });
    const deadline = Date.now() + 30_000;
    while ((await messagesOf(threadId)).length < 4 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await waitFor(threadId, ["idle"]);
    expect((await messagesOf(threadId)).map((message) => [message.role, message.content])).toEqual([
      ["user", "hello"],
      ["assistant", "Answer 1 to: hello"],
      ["user", "again"],
      ["assistant", "Answer 2 to: again"],
    ]);
    await checkInvariants(fixture, threadId);
  }, 90_000);
});
