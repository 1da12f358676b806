// Issue 41: a fork of a run of any studio template (chat assistant, the asset example, the team lead
// with named workers) goes on with the conversation it copied. Its scripted models answer from where
// the copied history left off (so the lead does not create 'ada' again), and the copied children keep
// the usage and times of the work they stand for. Edit-and-fork and fork-with-a-new-message both.
// On each backend: PGlite always, Postgres too when DATABASE_URL names a server.
import { describe, expect, it } from "vitest";
import type { Bundle } from "@/lib/standard";
import { STUDIO_TEMPLATES } from "@/lib/studio/templates";
import { testDatabaseBackends } from "../../test/support/open-database";
import { useStartedRuntime } from "../../test/support/started-runtime";

/** The template's bundle with its demo delays removed: the test is about what is said, not when. */
function withoutDelays(bundle: Bundle): Bundle {
  return {
    ...bundle,
    models: bundle.models.map((model) => ({
      ...model,
      script: model.script?.map(({ delayMs: _delay, ...step }) => step),
    })),
  };
}

const ENTRY_AGENT = {
  chat: "assistant",
  asset: "orchestrator",
  "named-workers": "team_lead",
  "refund-desk": "support",
} as const;

describe.each(testDatabaseBackends())("forks of template runs (%s)", (backend) => {
  const subject = useStartedRuntime(backend);

  /** Waits until no thread of the tree is at work and no input waits. */
  async function settled(rootId: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row] = await subject.database.sql.query<{ busy: number }>(
        `SELECT count(*)::int AS busy FROM threads t WHERE t.root_id = $1
           AND (t.status IN ('queued', 'running', 'waiting_approval')
             OR EXISTS (SELECT 1 FROM inbox_items i WHERE i.thread_id = t.id AND i.consumed_at IS NULL))`,
        [rootId],
      );
      if (Number(row?.busy) === 0) return;
      if (Date.now() > deadline) throw new Error(`tree ${rootId} did not settle`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function topLevel(threadId: string) {
    return (await subject.runtime.threads.messages(threadId, { includeSilent: true })).messages;
  }

  /** Everything the fork's root said or was answered after the copied history. */
  async function newMessages(forkId: string, copied: number) {
    return (await topLevel(forkId)).slice(copied);
  }

  for (const template of STUDIO_TEMPLATES) {
    it(`${template.label}: a fork continues the conversation it copied`, async () => {
      const project = await subject.runtime.projects.create({
        name: `fork ${template.id}`,
        definitions: withoutDelays(template.build()),
      });
      const { threadId } = await subject.runtime.threads.create({
        projectId: project.id,
        agentName: ENTRY_AGENT[template.id],
        message: "a poem about tides",
      });
      await settled(threadId);
      await subject.runtime.threads.postMessage(threadId, { content: "shorter, please" });
      await settled(threadId);
      const source = await topLevel(threadId);
      const second = source.filter((message) => message.role === "user" && !message.silent)[1]!;
      const secondIndex = source.findIndex((message) => message.id === second.id);

      // Edit and fork: the second request replaced.
      const edited = await subject.runtime.forks.fork(threadId, {
        atMessageId: second.id,
        content: "longer, please",
        replace: true,
      });
      // Fork with a new message after the whole history.
      const appended = await subject.runtime.forks.fork(threadId, {
        atMessageId: source.at(-1)!.id,
        content: "now in French",
      });
      await settled(edited.threadId);
      await settled(appended.threadId);

      for (const [fork, copied] of [
        [edited, secondIndex],
        [appended, source.length],
      ] as const) {
        const added = await newMessages(fork.threadId, copied);
        const said = added.map((message) => `${message.role}: ${message.content}`).join("\n");
        expect(said).not.toMatch(/already exists|error|script exhausted/i);
        expect(added.filter((message) => message.tool_status === "error")).toEqual([]);
        const reply = added.filter((message) => message.role === "assistant" && message.content).at(-1);
        expect(reply, said).toBeDefined();
        // The chat goes on, not back to the script's greeting.
        if (template.id === "chat") expect(reply!.content).not.toMatch(/^Hello!/);
        const view = await subject.runtime.threads.get(fork.threadId);
        expect(view.status, said).toBe("idle");
      }

      // The copied children keep their usage and times (a fork without a new message: nothing runs).
      const copy = await subject.runtime.forks.fork(threadId, { atMessageId: source.at(-1)!.id });
      const copies = await subject.database.sql.query<{
        input_tokens: string;
        created_at: string;
        updated_at: string;
        source_created: string;
        source_updated: string;
        source_input: string;
        finished_at: string | null;
        source_finished: string | null;
      }>(
        `SELECT c.input_tokens, c.created_at, c.updated_at, s.created_at AS source_created,
           s.updated_at AS source_updated, s.input_tokens AS source_input, c.finished_at,
           s.finished_at AS source_finished
         FROM threads c JOIN threads s ON s.id = c.forked_from_thread_id
         WHERE c.root_id = $1 AND c.parent_id IS NOT NULL`,
        [copy.threadId],
      );
      // The one-agent templates have no children to copy.
      if (template.id !== "chat" && template.id !== "refund-desk") expect(copies.length).toBeGreaterThan(0);
      for (const copy of copies) {
        expect(Number(copy.input_tokens)).toBeGreaterThan(0);
        expect(Number(copy.input_tokens)).toBe(Number(copy.source_input));
        expect(Number(copy.created_at)).toBe(Number(copy.source_created));
        expect(Number(copy.updated_at)).toBe(Number(copy.source_updated));
        // When it stopped working too, so its duration is the source's (docs/live.md "Durations").
        expect(copy.source_finished).not.toBeNull();
        expect(Number(copy.finished_at)).toBe(Number(copy.source_finished));
      }

      // Named readably, without stacked suffixes.
      expect(appended.thread.name).toBe(`Fork of ${ENTRY_AGENT[template.id]}`);
      // A replay of the fork still runs through.
      const replay = await subject.runtime.replays.replay(appended.threadId, { from_version: "same" });
      expect(replay.thread.name).toBe(`Replay of ${ENTRY_AGENT[template.id]}`);
      await settled(replay.threadId);
      const replayed = await topLevel(replay.threadId);
      expect(replayed.map((message) => message.content).join("\n")).not.toMatch(/already exists/);
    }, 120_000);
  }
});
