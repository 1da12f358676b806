// What the thread routes take and answer besides the thread itself: `POST /api/threads` (start),
// `GET /api/threads` (a page of the list), `POST /api/threads/:id/messages` (queue a message),
// stop/terminate, and the variables a deferred subagent waits for. Declared once for the routes
// and the browser's client (lib/api/client.ts).
import { z } from "zod";
import { ThreadViewSchema } from "./thread";

/** The server takes at most this many attachments per message (runtime/store/attachments.ts). */
export const MAX_ATTACHMENTS_PER_MESSAGE = 20;

const uploadedAttachment = z.object({
  name: z.string(),
  mimeType: z.string(),
  /** The file's bytes, base64. */
  data: z.string(),
  description: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});

/**
 * The `attachments` of a message body as a client writes it: a path in the thread's filesystem (a
 * string or `{ path, description? }`) or an upload. The routes parse it with the stricter
 * `AttachmentInputsSchema` of app/api/_lib/attachments.ts, which normalises paths and decodes
 * uploads with the runtime's rules (`withServerAttachments`).
 */
export const AttachmentInputsWireSchema = z
  .array(
    z.union([
      z.string(),
      z.object({ path: z.string(), description: z.string().optional() }),
      uploadedAttachment,
    ]),
  )
  .max(MAX_ATTACHMENTS_PER_MESSAGE);

const EnvSchema = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "env names are letters, digits and underscores"),
    z.string(),
  )
  .optional();

/** `POST /api/threads`: start a thread of an agent (pinned to the project's current version). */
export const CreateThreadBodySchema = z.object({
  project_id: z.string({ error: "project_id is required" }),
  agent_id: z.string({ error: "agent_id is required (an agent name)" }).min(1),
  message: z.string().optional(),
  initial_messages: z
    .array(
      z.object({ role: z.enum(["user", "assistant"]), content: z.string(), silent: z.boolean().optional() }),
    )
    .max(1000)
    .optional(),
  /** Attached to `message`, written into the new thread's filesystem under /attachments/. */
  attachments: AttachmentInputsWireSchema.optional(),
  env: EnvSchema,
  name: z.string().max(200).optional(),
});

/** `POST /api/threads/:id/messages`: queue a message (202 once committed). */
export const PostMessageBodySchema = z.object({
  content: z.string({ error: "content is required (a string)" }),
  role: z.enum(["user", "assistant"]).optional(),
  silent: z.boolean().optional(),
  attachments: AttachmentInputsWireSchema.optional(),
});

/** `POST /api/threads/:parentId/variables/:requestId`: the values a deferred subagent waits for. */
export const ProvideValuesBodySchema = z.object({
  values: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an env variable name"), z.string()),
});

/** A thread as `GET /api/threads` and `GET /api/threads/:id` answer it (the live view's thread shape). */
export const ThreadSummarySchema = ThreadViewSchema.extend({
  /** The thread's first user message (cut to 200 characters), listed by `GET /api/threads`. */
  title: z.string().nullable().optional(),
});
export type ThreadSummary = z.infer<typeof ThreadSummarySchema>;

/** `GET /api/threads`: one page of the list. */
export const ThreadListSchema = z.object({
  threads: z.array(ThreadSummarySchema),
  total: z.number().int(),
  hasMore: z.boolean(),
});
export type ThreadList = z.infer<typeof ThreadListSchema>;

/** `POST /api/threads` (201). */
export const CreatedThreadSchema = z.object({ threadId: z.string(), agent_id: z.string() });

/** `POST /api/threads/:id/messages` (202). */
export const QueuedMessageSchema = z.looseObject({
  status: z.literal("queued"),
  queueId: z.string(),
  messageId: z.string(),
});

/** `POST /api/threads/:id/stop` and `…/terminate`. */
export const ThreadActionSchema = z.looseObject({ status: z.string() });

/** The part of `GET /api/threads/:id/messages` a count needs. */
export const MessageCountSchema = z.looseObject({ total: z.number().int().nonnegative() });
