// Fork (issue 21, API.md "Replay, fork and diff"): a new root thread holding a copy of another
// thread's history up to a message, and its files, optionally followed by a new user message that
// runs the agent. One transaction: the fork exists whole or not at all; the source is only read.
//
// Choices (docs/live.md "Fork and diff"); `replace: true` (an extension) copies the history before the
// message so `content` takes its place ("edit and fork"):
// - The cut never separates an assistant tool call from its results: forking at such a message (or
//   at one result of several) also copies the remaining results (lib/runs/fork-point.ts); a call
//   whose result is not there yet (the source is still working on it) is a 422.
// - Sub-prompt messages (depth > 0) are copied with the top-level message they belong to; forking
//   *at* one is a 422 (fork from the top-level message instead).
// - Messages get new ids (parent links remapped); role, side, text, tool calls and their ids,
//   results, silence, metadata, attachments and prompt are kept, in the same order, numbered 1..n.
// - Files: the source's whole filesystem as it is now (the store keeps no file history).
// - Children are not copied: the fork's history keeps the subagent calls and their results (the
//   text each child reported), its registry starts empty, and it spawns children of its own when it
//   runs on. Usage and model-call logs start at zero: the fork has spent nothing yet.
// - Same project version and agent (the one in charge now); named "<name> (fork)".
import "server-only";
import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/database";
import { forkCut } from "@/lib/runs/fork-point";
import { InvalidInputError, NotFoundError, UnprocessableError } from "../errors";
import { appendEvents } from "../store/event-log";
import { copyThreadFiles } from "../store/file-store";
import { enqueue } from "../store/inbox";
import { insertMessages, readHistory } from "../store/message-store";
import { initialExecutionState } from "../store/messages";
import { messageEvent, threadEvent } from "../store/thread-events";
import { createThread } from "../store/thread-lifecycle";
import { type ThreadView, toThreadView } from "../store/thread-row";
import { findThread } from "../store/thread-store";
import { isUuid } from "./project-service";

/** Deeper than any sub-prompt nesting: the fork copies every message of the thread. */
const ALL_DEPTHS = 1_000;

export interface ForkInput {
  atMessageId: string;
  /** A new user message after the copied history; it runs the agent as a posted message would. */
  content?: string;
  /** Copy the history before the message only, so `content` takes its place ("edit and fork"). */
  replace?: boolean;
}

export interface ForkResult {
  threadId: string;
  thread: ThreadView;
  /** The source thread and the last message of it the fork holds (later than `at_message_id` when
   * the cut was moved forward to keep tool calls with their results). */
  forked_from: { thread_id: string; at_message_id: string; through_message_id: string | null };
  copied_messages: number;
  copied_files: number;
}

export class ThreadForkService {
  constructor(private readonly database: Database) {}

  async fork(sourceId: string, input: ForkInput): Promise<ForkResult> {
    if (input.content !== undefined && input.content.trim() === "")
      throw new InvalidInputError("content, when given, must not be empty.", { field: "content" });
    if (input.replace && input.content === undefined)
      throw new InvalidInputError("replace needs content: the new message that takes the old one's place.", {
        field: "content",
      });
    const source = isUuid(sourceId) ? await findThread(this.database.sql, sourceId) : null;
    if (!source) throw new NotFoundError("Thread", sourceId);
    const id = randomUUID();
    const withInput = input.content !== undefined;
    const result = await this.database.sql.transaction(async (tx) => {
      const history = await readHistory(tx, source.id, ALL_DEPTHS);
      const cut = forkCut(history, input.atMessageId, { replace: input.replace ?? false });
      if (cut.kind === "not_found") throw new NotFoundError("Message", input.atMessageId);
      if (cut.kind === "nested")
        throw new UnprocessableError(
          "That message belongs to a sub-prompt inside a tool call; fork from the top-level message that made the call.",
          { at_message_id: input.atMessageId },
          "fork_point_nested",
        );
      if (cut.kind === "unanswered")
        throw new UnprocessableError(
          input.replace
            ? "That message answers a tool call; replacing it would leave the call without its answer. Fork from another message."
            : `The tool call ${cut.callId} up to that message has no result yet, so a fork there would hold a call without its answer. Fork from an earlier message, or once the call is answered.`,
          { at_message_id: input.atMessageId, tool_call_id: cut.callId },
          "fork_point_unanswered",
        );
      const copied = history.filter((message) => message.seq <= cut.throughSeq);
      const newIds = new Map(copied.map((message) => [message.id, randomUUID()]));
      const row = await createThread(
        tx,
        {
          id,
          projectId: source.project_id,
          projectVersion: source.project_version,
          agentName: source.agent_name,
          parentId: null,
          rootId: id,
          depth: 0,
          name: `${source.name ?? source.agent_name} (fork)`,
          execution: {
            ...initialExecutionState(),
            currentSide: source.execution.currentSide,
            immediateDone: source.execution.immediateDone,
          },
          env: source.env,
          scopedEnv: source.scoped_env,
        },
        withInput,
      );
      const inserted = await insertMessages(
        tx,
        id,
        copied.map((message) => ({
          id: newIds.get(message.id)!,
          role: message.role,
          side: message.side,
          content: message.content,
          name: message.name,
          tool_calls: message.tool_calls,
          tool_call_id: message.tool_call_id,
          tool_status: message.tool_status,
          parent_id: message.parent_id ? (newIds.get(message.parent_id) ?? null) : null,
          depth: message.depth,
          silent: message.silent,
          metadata: message.metadata,
          subagent_id: message.subagent_id,
          attachments: message.attachments,
          prompt: message.prompt,
        })),
      );
      const files = await copyThreadFiles(tx, source.id, id);
      if (withInput) {
        await enqueue(tx, id, {
          role: "user",
          content: input.content!,
          attachments: [],
          silent: false,
          metadata: {},
          fromHuman: true,
          messageId: randomUUID(),
          external: true,
        });
      }
      const stored = { ...row, message_seq: inserted.at(-1)?.seq ?? 0 };
      await appendEvents(tx, [
        threadEvent(stored),
        ...inserted.filter((message) => message.depth === 0).map((message) => messageEvent(stored, message)),
      ]);
      return { row: stored, messages: inserted.length, files, throughId: cut.throughId };
    });
    return {
      threadId: id,
      thread: toThreadView(result.row),
      forked_from: {
        thread_id: source.id,
        at_message_id: input.atMessageId,
        through_message_id: result.throughId,
      },
      copied_messages: result.messages,
      copied_files: result.files,
    };
  }
}
