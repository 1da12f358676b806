// Replays on the wire (API.md "Replay, fork and diff"; docs/runtime.md "Replay"): what `POST
// /api/threads/:id/replay` takes, what `GET /api/threads/:id/replay` answers, and the `divergence`
// event a replayed thread emits at its first call the recording can no longer answer.
import { z } from "zod";

/** `POST /api/threads/:id/replay`: run against the source's project version, or the latest saved one. */
export const ReplayRequestSchema = z.object({
  from_version: z.enum(["same", "latest"]).default("latest"),
});
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>;

/**
 * `POST /api/projects/:id/replays`: replay these runs, or without ids the latest `limit` finished
 * root runs that are not replays themselves (the body is optional).
 */
export const ReplayManyRequestSchema = z.object({
  thread_ids: z.array(z.string().min(1)).min(1).max(50).optional(),
  limit: z.number().int().min(1).max(50).default(20),
  from_version: z.enum(["same", "latest"]).default("latest"),
});

/** Why a replayed call went to the real model. */
export const DIVERGENCE_REASONS = ["request_changed", "model_changed", "no_recording"] as const;

/** The first call of one replayed thread that the recording could not answer. */
export const DivergenceSchema = z.object({
  thread_id: z.string().min(1),
  /** The thread of the source tree whose recording this thread follows. */
  source_thread_id: z.string().min(1),
  agent_id: z.string(),
  thread_name: z.string().nullable().default(null),
  side: z.enum(["a", "b"]),
  /** Which model call of that side (0 = its first). */
  call_index: z.number().int().nonnegative(),
  model: z.string(),
  reason: z.enum(DIVERGENCE_REASONS),
  /** Where the requests first differ (`messages[0].content`), with both values cut to an excerpt. */
  path: z.string().nullable().default(null),
  recorded: z.unknown().optional(),
  replayed: z.unknown().optional(),
  at: z.number().finite(),
});
export type Divergence = z.infer<typeof DivergenceSchema>;
export type DivergenceWire = z.input<typeof DivergenceSchema>;

/** The `divergence` event payload. */
export const DivergencePayloadSchema = z.object({
  thread_id: z.string().min(1),
  divergence: DivergenceSchema,
});
export type DivergencePayload = z.input<typeof DivergencePayloadSchema>;

/** `POST /api/threads/:id/replay`'s answer (201). */
export const StartedReplaySchema = z.object({
  threadId: z.string().min(1),
  replay_of: z.string(),
  from_version: z.enum(["same", "latest"]),
  version: z.number().int(),
  /** Groups of inputs the replay posts, one after another. */
  inputs: z.number().int().nonnegative(),
});
export type StartedReplay = z.infer<typeof StartedReplaySchema>;

/** `GET /api/threads/:id/replay`: a replay's progress and every divergence in its tree. */
export const ReplayStatusSchema = z.object({
  thread_id: z.string(),
  replay_of: z.string(),
  from_version: z.enum(["same", "latest"]),
  /** `running` while inputs remain or any thread of the tree works; `finished` once all are posted and the tree is quiet. */
  state: z.enum(["running", "finished"]),
  inputs_total: z.number().int().nonnegative(),
  inputs_posted: z.number().int().nonnegative(),
  /** Model calls answered from the recording, and by a real model, across the tree. */
  calls: z.object({ replayed: z.number().int().nonnegative(), live: z.number().int().nonnegative() }),
  threads: z.number().int().nonnegative(),
  divergences: z.array(DivergenceSchema),
  finished_at: z.number().nullable(),
});
export type ReplayStatus = z.infer<typeof ReplayStatusSchema>;

/**
 * A run a batch did not replay, and why in the user's words. The run's agent, name and creation time
 * (microseconds) name it as the run list does; batches stored before they were kept have only the id.
 */
export const SkippedRunSchema = z.object({
  thread_id: z.string(),
  reason: z.string(),
  agent_id: z.string().optional(),
  name: z.string().nullable().optional(),
  created_at: z.number().optional(),
});
export type SkippedRun = z.infer<typeof SkippedRunSchema>;

/** `POST /api/projects/:id/replays`'s answer (201): the replays started, and the runs skipped with why. */
export const ManyReplaysSchema = z.object({
  /** The batch they belong to (`GET /api/projects/:id/replays` reads it back). */
  batch_id: z.string().optional(),
  replays: z.array(
    z.object({
      source: z.object({ id: z.string(), name: z.string().nullable(), agent_id: z.string() }),
      threadId: z.string(),
    }),
  ),
  skipped: z.array(SkippedRunSchema),
});
export type ManyReplays = z.infer<typeof ManyReplaysSchema>;

/** One replay of a batch as `GET /api/projects/:id/replays` lists it: its source, and its progress. */
export const BatchReplaySchema = z.object({
  source: z.object({ id: z.string(), name: z.string().nullable(), agent_id: z.string() }),
  threadId: z.string().min(1),
  status: ReplayStatusSchema,
});
export type BatchReplay = z.infer<typeof BatchReplaySchema>;

/**
 * `GET /api/projects/:id/replays`: the project's latest "Replay runs" batch (null before the first),
 * each replay with its progress from the server, `finished` once every replay of it has finished.
 */
export const ReplayBatchSchema = z.object({
  id: z.string(),
  from_version: z.enum(["same", "latest"]),
  created_at: z.number(),
  state: z.enum(["running", "finished"]),
  replays: z.array(BatchReplaySchema),
  skipped: z.array(SkippedRunSchema),
});
export type ReplayBatch = z.infer<typeof ReplayBatchSchema>;
export const LatestReplayBatchSchema = z.object({ batch: ReplayBatchSchema.nullable() });
