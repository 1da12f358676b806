// Fork (issue 21, API.md "Replay, fork and diff"): a new root thread holding a copy of another
// thread's history up to a message, its files, and the subagent children that history knows about
// (with their whole subtrees), optionally followed by a new user message that runs the agent. One
// transaction: the fork exists whole or not at all; the source tree is only read.
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
// - Children (runtime/services/fork-subtree.ts): every child spawned by a tool call the copy holds is
//   copied with its whole subtree as it is now — history (same seqs), files, status and outcome,
//   registry rows, invocations, env requests — under new ids, as threads of the fork's tree (root,
//   parent and depth remapped). Children spawned after the cut are not copied. Every renewed id is
//   replaced wherever the copies write it down (a result's "reference: <id>", a report's
//   `subagent_id`, a child's `from_parent`; lib/runs/fork-ids.ts), so the fork's agent reaches its
//   copies, never the source's children. Of the root's invocations only those of copied calls are
//   copied; a copied child keeps its later history, though (the store keeps no per-call cut of it).
//   A copied thread that is still at work (queued, running, waiting for an approval) is a 422
//   (`fork_child_active`): its history would be half a turn. Copies are never runnable; they wait,
//   settled, for input like any idle or finished child.
// - The root's usage and model-call logs (and tool-run logs) start at zero: the fork has spent nothing
//   yet. Copied children keep their usage and times. Scripted models count on from the calls the
//   copy stands for (`execution.copiedModelCalls`), so the copied conversation goes on.
// - Same project version and agent (the one in charge now); named "Fork of <name>" (lib/runs/run-names.ts); each thread of the
//   fork records what it copies (`forked_from_thread_id`, and for the root `forked_from_message_id`:
//   the message asked for), shown as `forked_from` on the thread view.
import "server-only";
import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { forkCut } from "@/lib/runs/fork-point";
import { derivedRunName } from "@/lib/runs/run-names";
import { InvalidInputError, NotFoundError, UnprocessableError } from "../errors";
import { appendEvents, type NewEvent } from "../store/event-log";
import { copyThreadFiles } from "../store/file-store";
import { enqueue } from "../store/inbox";
import { insertMessages, readHistory } from "../store/message-store";
import { type ExecutionState, initialExecutionState } from "../store/messages";
import { addModelCallCounts, modelCallCounts } from "../store/model-call-counts";
import { messageEvent, threadEvent } from "../store/thread-events";
import { createThread } from "../store/thread-lifecycle";
import { type ThreadRow, type ThreadView, toThreadView } from "../store/thread-row";
import { findThread } from "../store/thread-store";
import { copyMessage, readSubtree, registryEvents, renewSubtreeIds, writeSubtreeCopy } from "./fork-subtree";
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
  /** Messages and files of the root and every copied child. */
  copied_messages: number;
  copied_files: number;
  /** Subagent threads copied under the fork (the whole subtrees of the children its history knows). */
  copied_threads: number;
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
      const copy = await writeHistoryCopy(
        tx,
        source,
        { atMessageId: input.atMessageId, replace: input.replace ?? false },
        {
          id,
          name: derivedRunName("fork", source.name ?? source.agent_name),
          execution: {},
          forkedFrom: { threadId: source.id, messageId: input.atMessageId },
          runnable: withInput,
        },
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
      await appendEvents(tx, copy.events);
      return {
        row: copy.row,
        messages: copy.messages,
        files: files + copy.childFiles,
        threads: copy.threads,
        throughId: copy.throughId,
      };
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
      copied_threads: result.threads,
    };
  }
}

/** A new root thread holding a copy of `source`'s history through a cut (see the file comment). */
export interface HistoryCopy {
  row: ThreadRow;
  /** Messages of the root and every copied child. */
  messages: number;
  /** Files of the copied children (the root's own files are the caller's to copy). */
  childFiles: number;
  /** Subagent threads copied under the new root. */
  threads: number;
  /** The last message of the source the copy holds. */
  throughId: string | null;
  /** The copy's events (the thread, its top-level messages, the children and registries), to append. */
  events: NewEvent[];
}

/**
 * Writes, in `tx`, a new root thread `target.id` of `source`'s project, version and agent holding a
 * copy of its history cut at `cut` (forkCut: through the message, or before it with `replace`) with
 * the subagent subtrees that history knows: the fork's copy, and where a replay of a fork starts.
 * Throws the fork's 404 and 422s for a cut that cannot be made.
 */
export async function writeHistoryCopy(
  tx: SqlExecutor,
  source: ThreadRow,
  cut: { atMessageId: string; replace: boolean },
  target: {
    id: string;
    name: string;
    /** Set on the new root's execution state beside the source's side and immediate branches. */
    execution: Partial<ExecutionState>;
    forkedFrom: { threadId: string; messageId: string } | null;
    /** Whether input is queued with it (it runs at once). */
    runnable: boolean;
    /** The version and agent it runs (default: the source's). */
    projectVersion?: number;
    agentName?: string;
  },
): Promise<HistoryCopy> {
  const history = await readHistory(tx, source.id, ALL_DEPTHS);
  const at = forkCut(history, cut.atMessageId, { replace: cut.replace });
  if (at.kind === "not_found") throw new NotFoundError("Message", cut.atMessageId);
  if (at.kind === "nested")
    throw new UnprocessableError(
      "That message belongs to a sub-prompt inside a tool call; fork from the top-level message that made the call.",
      { at_message_id: cut.atMessageId },
      "fork_point_nested",
    );
  if (at.kind === "unanswered")
    throw new UnprocessableError(
      cut.replace
        ? "That message answers a tool call; replacing it would leave the call without its answer. Fork from another message."
        : `The tool call ${at.callId} up to that message has no result yet, so a fork there would hold a call without its answer. Fork from an earlier message, or once the call is answered.`,
      { at_message_id: cut.atMessageId, tool_call_id: at.callId },
      "fork_point_unanswered",
    );
  const id = target.id;
  const copied = history.filter((message) => message.seq <= at.throughSeq);
  const callIds = new Set(copied.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id)));
  const subtree = await readSubtree(tx, source.id, callIds);
  const last = copied.at(-1);
  const calls = await modelCallCounts(tx, [source.id, ...subtree.threads.map((thread) => thread.id)], {
    threadId: source.id,
    startedThrough: last?.created_at ?? 0,
  });
  const ids = new Map<string, string>([[source.id, id]]);
  for (const message of copied) ids.set(message.id, randomUUID());
  renewSubtreeIds(subtree, ids);
  const row = await createThread(
    tx,
    {
      id,
      projectId: source.project_id,
      projectVersion: target.projectVersion ?? source.project_version,
      agentName: target.agentName ?? source.agent_name,
      parentId: null,
      rootId: id,
      depth: 0,
      name: target.name,
      execution: {
        ...initialExecutionState(),
        currentSide: source.execution.currentSide,
        immediateDone: source.execution.immediateDone,
        // The copy stands for the calls that wrote it (none when nothing is copied).
        copiedModelCalls: last
          ? addModelCallCounts(source.execution.copiedModelCalls, calls.get(source.id) ?? {})
          : {},
        ...target.execution,
      },
      env: source.env,
      scopedEnv: source.scoped_env,
      ...(target.forkedFrom ? { forkedFrom: target.forkedFrom } : {}),
    },
    target.runnable,
  );
  const inserted = await insertMessages(
    tx,
    id,
    copied.map((message) => {
      const copy = copyMessage(message, ids);
      return {
        id: copy.id,
        role: copy.role,
        side: copy.side,
        content: copy.content,
        name: copy.name,
        tool_calls: copy.tool_calls,
        tool_call_id: copy.tool_call_id,
        tool_status: copy.tool_status,
        parent_id: copy.parent_id,
        depth: copy.depth,
        silent: copy.silent,
        metadata: copy.metadata,
        subagent_id: copy.subagent_id,
        attachments: copy.attachments,
        prompt: copy.prompt,
      };
    }),
  );
  const children = await writeSubtreeCopy(tx, subtree, ids, id, calls);
  const stored = { ...row, message_seq: inserted.at(-1)?.seq ?? 0 };
  return {
    row: stored,
    messages: inserted.length + children.messages,
    childFiles: children.files,
    threads: children.rows.length,
    throughId: at.throughId,
    events: [
      threadEvent(stored),
      ...inserted.filter((message) => message.depth === 0).map((message) => messageEvent(stored, message)),
      ...children.events,
      ...(await registryEvents(tx, id, subtree, ids)),
    ],
  };
}
