// Tool approvals on the wire (API.md "Approvals", a Tandem extension): what `GET
// /api/threads/:id/approvals` lists, what `POST /api/approvals/:id` takes, and the `approval` event.
import { z } from "zod";

export const APPROVAL_STATES = ["pending", "approved", "denied", "cancelled"] as const;
export const ApprovalStateSchema = z.enum(APPROVAL_STATES);
export type ApprovalState = z.infer<typeof ApprovalStateSchema>;

/** One approval: a model's call of a tool marked `requiresApproval`, and its decision once made. */
export const ApprovalViewSchema = z.object({
  id: z.string().min(1),
  thread_id: z.string().min(1),
  root_id: z.string().min(1),
  /** The thread's display name and agent, for lists that span a tree or a project. */
  thread_name: z.string().nullable().default(null),
  agent_id: z.string().default(""),
  tool_call_id: z.string(),
  tool_name: z.string(),
  args: z.unknown(),
  /** The JSON Schema the arguments must satisfy (an edited set is checked against it). */
  args_schema: z.record(z.string(), z.unknown()).nullable().default(null),
  requested_at: z.number().finite(),
  state: ApprovalStateSchema,
  decided_at: z.number().finite().nullable().default(null),
  /** The arguments the call ran with when the approver edited them. */
  decided_args: z.unknown().optional(),
  reason: z.string().nullable().default(null),
});
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;
export type ApprovalViewWire = z.input<typeof ApprovalViewSchema>;

/** `POST /api/approvals/:id`. */
export const ApprovalDecisionSchema = z.object({
  decision: z.enum(["approve", "deny"]),
  args: z.unknown().optional(),
  reason: z.string().max(10_000).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** `GET /api/threads/:id/approvals?state=` and `GET /api/approvals?project_id=&state=`. */
export const ApprovalListQuerySchema = z.object({
  state: ApprovalStateSchema.optional(),
});

/** `GET /api/approvals?project_id=&state=`: a project's approvals (the project-wide inbox). */
export const ProjectApprovalListQuerySchema = ApprovalListQuerySchema.extend({
  project_id: z.string().min(1),
});

/** What both approval lists answer, oldest first. */
export const ApprovalListSchema = z.object({ approvals: z.array(ApprovalViewSchema) });

/** What `POST /api/approvals/:id` answers: the approval as decided. */
export const ApprovalDecidedSchema = z.object({ approval: ApprovalViewSchema });

/** The `approval` event payload: the approval as it is now (requested, or decided). */
export const ApprovalPayloadSchema = z.object({
  thread_id: z.string().min(1),
  approval: ApprovalViewSchema,
});
export type ApprovalPayload = z.input<typeof ApprovalPayloadSchema>;
