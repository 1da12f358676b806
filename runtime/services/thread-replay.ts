// Replay (issue 21, API.md "Replay, fork and diff"; docs/runtime.md "Replay"): a new root thread
// that re-runs a root thread's recorded external inputs — the messages the API posted to it — one
// group at a time (runtime/store/replay-inputs.ts), with every model call of the new tree answered
// from the source tree's recording while its request still matches (runtime/engine/step/
// replay-answer.ts). Children follow their counterparts in the source tree
// (runtime/subagents/replay-children.ts). Tools run again; no provider is called until a thread
// diverges.
//
// Choices:
// - `from_version: "latest"` (the default) runs the project's current version, so a replay of an
//   old run checks it against the edited definitions; `"same"` runs the source's version.
// - The replay starts with the agent the source started with (a handoff happens again when the
//   recording repeats it), with the source's env; it is named "Replay of <name>" (lib/runs/run-names.ts, no stacked suffixes).
// - Files the inputs attached are copied from the source (the rest the replay's tools write anew).
// - A fork's replay starts where the fork started: with a copy of the fork's history before the
//   first input posted to it, and of the subagent children that history knows (the fork's own
//   copy, runtime/services/thread-fork.ts `writeHistoryCopy`), so its first model call sees the
//   request its recording holds. Its files start as any replay's (the store keeps no file history).
// - Only a root can be replayed: a child's inputs come from its parent.
import "server-only";
import { randomUUID } from "node:crypto";
import type { ManyReplays, ReplayBatch, ReplayRequest, ReplayStatus } from "@/lib/contracts/replay";
import { DivergenceSchema } from "@/lib/contracts/replay";
import type { Database } from "@/lib/db/database";
import { derivedRunName } from "@/lib/runs/run-names";
import { isTandemError, NotFoundError, UnprocessableError } from "../errors";
import { copyFilesBetweenThreads } from "../store/attachments";
import type { DefinitionsCache } from "../store/definitions";
import { appendEvents, firstEventBatch, type NewEvent } from "../store/event-log";
import { enqueue } from "../store/inbox";
import { initialExecutionState } from "../store/messages";
import { currentProjectVersion, projectExists } from "../store/project-versions";
import {
  insertReplayBatch,
  latestReplayBatch,
  recordBatchReplay,
  recordBatchSkipped,
} from "../store/replay-batches";
import { externalInputsOf, replayPayload } from "../store/replay-inputs";
import { threadEvent } from "../store/thread-events";
import { createThread } from "../store/thread-lifecycle";
import {
  firstInputMessageId,
  insertReplayRoot,
  isReplayThread,
  latestReplayableRoots,
  replayProgressRows,
  replayRootOf,
} from "../store/thread-replays";
import { type ThreadRow, type ThreadView, toThreadView } from "../store/thread-row";
import { findThread } from "../store/thread-store";
import { isUuid } from "./project-service";
import { runnableVersion } from "./runnable-version";
import { writeHistoryCopy } from "./thread-fork";

export interface ReplayResult {
  threadId: string;
  thread: ThreadView;
  replay_of: string;
  from_version: ReplayRequest["from_version"];
  version: number;
  /** Groups of inputs the replay will post (the first one is queued already). */
  inputs: number;
}

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

export class ThreadReplayService {
  constructor(
    private readonly database: Database,
    private readonly definitions: DefinitionsCache,
  ) {}

  async replay(sourceId: string, input: ReplayRequest): Promise<ReplayResult> {
    const sql = this.database.sql;
    const source = isUuid(sourceId) ? await findThread(sql, sourceId) : null;
    if (!source) throw new NotFoundError("Thread", sourceId);
    if (source.parent_id !== null)
      throw new UnprocessableError(
        "Only a root thread can be replayed: a child's input comes from its parent. Replay the root of its tree.",
        { root_id: source.root_id },
        "replay_needs_root",
      );
    const currentVersion = await currentProjectVersion(sql, source.project_id);
    if (currentVersion === null) throw new NotFoundError("Project", source.project_id);
    const version = input.from_version === "same" ? source.project_version : currentVersion;
    const agentName = (await this.firstAgentOf(source.id)) ?? source.agent_name;
    if (input.from_version !== "same" && !(await this.versionHasAgent(source.project_id, version, agentName)))
      throw new UnprocessableError(
        `The latest saved version (v${version}) has no agent ${agentName}, so this run cannot be replayed against it. Replay it against the version it ran with (v${source.project_version}).`,
        { agent_id: agentName, version, ran_with_version: source.project_version },
        "replay_agent_missing",
      );
    await runnableVersion(this.definitions, source.project_id, version, agentName);
    const inputs = await externalInputsOf(sql, source.id);
    if (inputs.length === 0)
      throw new UnprocessableError(
        "That thread has no input to replay: nothing was ever posted to it.",
        {},
        "replay_without_input",
      );
    const id = randomUUID();
    const name = derivedRunName("replay", source.name ?? source.agent_name);
    const execution = { replayOf: source.id };
    // A fork started from a copy of another run's history (and the children it knew): its replay
    // starts from the same copy, the fork's history before the first input posted to it, so its
    // model calls see the requests its recording holds.
    const firstInput =
      source.forked_from_thread_id === null ? null : await firstInputMessageId(sql, source.id);
    const row = await sql.transaction(async (tx) => {
      let created: ThreadRow;
      let copyEvents: NewEvent[] = [];
      if (firstInput) {
        const copy = await writeHistoryCopy(
          tx,
          source,
          { atMessageId: firstInput, replace: true },
          { id, name, execution, forkedFrom: null, runnable: true, projectVersion: version, agentName },
        );
        created = copy.row;
        copyEvents = copy.events;
      } else {
        created = await createThread(
          tx,
          {
            id,
            projectId: source.project_id,
            projectVersion: version,
            agentName,
            parentId: null,
            rootId: id,
            depth: 0,
            name,
            execution: { ...initialExecutionState(), ...execution },
            env: source.env,
            scopedEnv: source.scoped_env,
          },
          true,
        );
      }
      const paths = [
        ...new Set(inputs.flat().flatMap((entry) => entry.attachments.map((file) => file.path))),
      ];
      if (paths.length > 0) await copyFilesBetweenThreads(tx, source.id, id, paths, { skipMissing: true });
      await insertReplayRoot(tx, {
        threadId: id,
        sourceThreadId: source.id,
        fromVersion: input.from_version,
        inputs,
      });
      for (const entry of inputs[0]!) await enqueue(tx, id, replayPayload(entry));
      await appendEvents(tx, firstInput ? copyEvents : [threadEvent(created)]);
      return created;
    });
    return {
      threadId: id,
      thread: toThreadView(row),
      replay_of: source.id,
      from_version: input.from_version,
      version,
      inputs: inputs.length,
    };
  }

  /**
   * Replays several runs of a project at once (the regression check of docs/live.md "Replay"): the
   * given root threads, or the latest `limit` finished root threads that are not replays themselves.
   * A run that cannot be replayed is listed in `skipped` with the reason; the others start. They
   * form one batch, which `latestBatch` reads back with each replay's progress.
   */
  async replayMany(
    projectId: string,
    input: { threadIds?: string[]; limit: number; fromVersion: ReplayRequest["from_version"] },
  ): Promise<ManyReplays> {
    const sql = this.database.sql;
    if (!isUuid(projectId) || !(await projectExists(sql, projectId)))
      throw new NotFoundError("Project", projectId);
    const ids = input.threadIds ?? (await latestReplayableRoots(sql, { projectId, limit: input.limit }));
    const batchId = randomUUID();
    await insertReplayBatch(sql, { id: batchId, projectId, fromVersion: input.fromVersion });
    const started: ManyReplays["replays"] = [];
    const skipped: ManyReplays["skipped"] = [];
    for (const id of ids) {
      const source = isUuid(id) ? await findThread(sql, id) : null;
      if (!source || source.project_id !== projectId) {
        skipped.push({ thread_id: id, reason: "Not a thread of this project." });
        continue;
      }
      try {
        const replay = await this.replay(id, { from_version: input.fromVersion });
        await recordBatchReplay(sql, batchId, replay.threadId);
        started.push({
          source: { id, name: source.name, agent_id: source.agent_name },
          threadId: replay.threadId,
        });
      } catch (error) {
        if (!isTandemError(error)) throw error;
        // Said in the user's words, with the run named as the run list names it (agent, name, time).
        const reason =
          error.code === "replay_agent_missing"
            ? `the latest version has no agent ${String(error.details.agent_id)}`
            : error.message;
        skipped.push({
          thread_id: id,
          reason,
          agent_id: source.agent_name,
          name: source.name,
          created_at: source.created_at,
        });
      }
    }
    if (skipped.length > 0) await recordBatchSkipped(sql, batchId, skipped);
    return { batch_id: batchId, replays: started, skipped };
  }

  /**
   * The project's latest batch of `replayMany`, each replay with its progress (`status`): what the
   * project page shows, from the server, so a reload keeps it. Null before the first batch.
   */
  async latestBatch(projectId: string): Promise<ReplayBatch | null> {
    const sql = this.database.sql;
    if (!isUuid(projectId) || !(await projectExists(sql, projectId)))
      throw new NotFoundError("Project", projectId);
    const batch = await latestReplayBatch(sql, projectId);
    if (!batch) return null;
    const replays = await Promise.all(
      batch.replays.map(async (replay) => ({
        source: replay.source,
        threadId: replay.thread_id,
        status: await this.status(replay.thread_id),
      })),
    );
    return {
      id: batch.id,
      from_version: batch.from_version,
      created_at: batch.created_at,
      state: replays.every((replay) => replay.status.state === "finished") ? "finished" : "running",
      replays,
      skipped: batch.skipped,
    };
  }

  /** A replay's progress and the divergences of its whole tree (any thread of the tree names it). */
  /** Whether the thread belongs to a replayed tree (it has a replay's progress to show). */
  /**
   * What "Replay…" can offer for a root run against the latest saved definitions: the latest version
   * and the agent the run started with, and whether that version has it (a template applied since may
   * not, and then only "the version it ran with" can replay the run).
   */
  async latestOffer(
    rootId: string,
  ): Promise<{ latestVersion: number; agentId: string; latestHasAgent: boolean } | null> {
    const sql = this.database.sql;
    const source = isUuid(rootId) ? await findThread(sql, rootId) : null;
    if (!source) return null;
    const latestVersion = await currentProjectVersion(sql, source.project_id);
    if (latestVersion === null) return null;
    const agentId = (await this.firstAgentOf(source.id)) ?? source.agent_name;
    return {
      latestVersion,
      agentId,
      latestHasAgent: await this.versionHasAgent(source.project_id, latestVersion, agentId),
    };
  }

  private async versionHasAgent(projectId: string, version: number, agentName: string): Promise<boolean> {
    const loaded = await this.definitions.load(projectId, version);
    return Boolean(loaded?.index.agents.get(agentName));
  }

  async isReplay(threadId: string): Promise<boolean> {
    if (!isUuid(threadId)) return false;
    return isReplayThread(this.database.sql, threadId);
  }

  async status(threadId: string): Promise<ReplayStatus> {
    const sql = this.database.sql;
    const rootId = isUuid(threadId) ? await replayRootOf(sql, threadId) : null;
    if (rootId === null) {
      if (isUuid(threadId) && (await findThread(sql, threadId)))
        throw new NotFoundError("Replay", `thread ${threadId} is not a replay`);
      throw new NotFoundError("Thread", threadId);
    }
    const { root: replay, divergences, calls } = await replayProgressRows(sql, rootId);
    if (!replay) throw new NotFoundError("Replay", rootId);
    const inputs = json(replay.inputs) as unknown[];
    const finishedAt = replay.finished_at === null ? null : Number(replay.finished_at);
    return {
      thread_id: rootId,
      replay_of: String(replay.source_thread_id),
      from_version: replay.from_version === "same" ? "same" : "latest",
      state: finishedAt === null ? "running" : "finished",
      inputs_total: inputs.length,
      inputs_posted: Number(replay.inputs_posted),
      calls,
      threads: Number(replay.threads),
      divergences: divergences
        .map((divergence) => DivergenceSchema.parse(json(divergence)))
        .sort((left, right) => left.at - right.at),
      finished_at: finishedAt,
    };
  }

  /** The agent a root started with: its first event batch is its creation, with its thread event. */
  private async firstAgentOf(rootId: string): Promise<string | null> {
    const batch = json(await firstEventBatch(this.database.sql, rootId)) as
      | { thread_id?: string; type?: string; data?: { agent_id?: unknown } }[]
      | null;
    const created = Array.isArray(batch)
      ? batch.find((event) => event.type === "thread" && event.thread_id === rootId)
      : undefined;
    return typeof created?.data?.agent_id === "string" ? created.data.agent_id : null;
  }
}
