// A message's wire shape (API.md `message`), declared once for the server
// (runtime/store/message-store.ts builds it with toMessageView) and the browser (lib/live parses it).
import { z } from "zod";

const microseconds = z.number().finite();

export const AttachmentSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  path: z.string(),
  name: z.string(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});

/** MessageView: the spec's message model plus `seq` and `side`; `tool_calls` is JSON-encoded text. */
export const MessageViewSchema = z.object({
  id: z.string().min(1),
  seq: z.number().int(),
  role: z.enum(["system", "user", "assistant", "tool"]),
  side: z.enum(["a", "b"]).nullable(),
  content: z.string().nullable(),
  name: z.string().nullable(),
  tool_calls: z.string().nullable(),
  tool_call_id: z.string().nullable(),
  tool_status: z.enum(["success", "error"]).nullable(),
  parent_id: z.string().nullable(),
  depth: z.number().int().nonnegative(),
  silent: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  subagent_id: z.string().nullable(),
  attachments: z.array(AttachmentSchema),
  created_at: microseconds,
});
export type MessageViewWire = z.infer<typeof MessageViewSchema>;
