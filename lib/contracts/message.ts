// The message model, declared once: its wire shape (API.md `message`, what the browser parses in
// lib/live) and the server's view of it (`MessageView`, built by toMessageView in
// runtime/store/message-store.ts; `Message` of the extension SDK, runtime/extensions/define.ts).
// The stored form (runtime/store/messages.ts `StoredMessage`) is derived from `MessageView`.
import { z } from "zod";

const microseconds = z.number().finite();

export const MESSAGE_ROLES = ["system", "user", "assistant", "tool"] as const;
export const MessageRoleSchema = z.enum(MESSAGE_ROLES);
/** Which side wrote a message: "a", "b" (null: input from outside — a human, a parent, a hook). */
export const MessageSideSchema = z.enum(["a", "b"]);
export const ToolStatusSchema = z.enum(["success", "error"]);

/** A file attached to a message, as stored: a path in the thread's filesystem and what it is. */
export const AttachmentRefSchema = z.object({
  id: z.string(),
  type: z.literal("file"),
  path: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number(),
  width: z.number().optional(),
  height: z.number().optional(),
  description: z.string().optional(),
});
export type AttachmentRef = z.infer<typeof AttachmentRefSchema>;

const { id, path, name } = AttachmentRefSchema.shape;

/** An attachment as the browser parses it: lenient about its kind, type and size (older answers). */
export const AttachmentSchema = z.looseObject({
  id,
  type: z.string(),
  path,
  name,
  mimeType: z.string().optional(),
  size: z.number().optional(),
});

/** MessageView: the spec's message model plus `seq` and `side`; `tool_calls` is JSON-encoded text. */
export const MessageViewSchema = z.object({
  id: z.string().min(1),
  seq: z.number().int(),
  role: MessageRoleSchema,
  side: MessageSideSchema.nullable(),
  content: z.string().nullable(),
  name: z.string().nullable(),
  tool_calls: z.string().nullable(),
  tool_call_id: z.string().nullable(),
  tool_status: ToolStatusSchema.nullable(),
  parent_id: z.string().nullable(),
  depth: z.number().int().nonnegative(),
  silent: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  subagent_id: z.string().nullable(),
  attachments: z.array(AttachmentSchema),
  created_at: microseconds,
});
export type MessageViewWire = z.infer<typeof MessageViewSchema>;

/** The message as the server holds and sends it: the wire shape with its attachments as stored. */
export type MessageView = Omit<MessageViewWire, "attachments"> & { attachments: AttachmentRef[] };
