// One input waiting in a thread's inbox, as stored (payload validated with zod when read back).
import { z } from "zod";
import { AttachmentRefSchema } from "./messages";

export const InboxMessagePayloadSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  attachments: z.array(AttachmentRefSchema).default([]),
  silent: z.boolean().default(false),
  metadata: z.record(z.string(), z.unknown()).default({}),
  /** Set when the message comes from a human (ai_human side B), not from a parent or a hook. */
  fromHuman: z.boolean().default(false),
  messageId: z.string(),
  /** Posted through the API (a person or a client), not by the runtime: what a replay posts again. */
  external: z.boolean().optional(),
});
export type InboxMessagePayload = z.infer<typeof InboxMessagePayloadSchema>;

export interface InboxItem {
  id: string;
  seq: number;
  kind: "message";
  payload: InboxMessagePayload;
}

/** An inbox row as read (`id`, `seq`, `payload` as JSON text or parsed). */
export function toInboxItem(row: Record<string, unknown>): InboxItem {
  return {
    id: String(row.id),
    seq: Number(row.seq),
    kind: "message",
    payload: InboxMessagePayloadSchema.parse(
      typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload,
    ),
  };
}
