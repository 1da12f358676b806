// POST /api/threads — start a thread of an agent (pinned to the project's current version);
// GET /api/threads — list threads (filters: project_id, parent_id, roots_only, status, agent_id, q;
// paging: limit, offset), parsed by the schema shared with the threads list (lib/api/thread-list-query).
import { z } from "zod";
import { parseThreadListQuery } from "@/lib/contracts/thread-list-query";
import { ForbiddenError } from "@/runtime/errors";
import { currentPrincipal, getRuntime } from "@/runtime/runtime";
import { AttachmentInputsSchema } from "../_lib/attachments";
import { handle, readJson } from "../_lib/http";

export const dynamic = "force-dynamic";

const EnvSchema = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "env names are letters, digits and underscores"),
    z.string(),
  )
  .optional();

const CreateThreadBody = z.object({
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
  attachments: AttachmentInputsSchema.optional(),
  env: EnvSchema,
  name: z.string().max(200).optional(),
});

export const POST = handle(async (request: Request) => {
  const body = await readJson(request, CreateThreadBody);
  const runtime = await getRuntime();
  const created = await runtime.threads.create({
    projectId: body.project_id,
    agentName: body.agent_id,
    ...(body.message !== undefined ? { message: body.message } : {}),
    ...(body.initial_messages ? { initialMessages: body.initial_messages } : {}),
    ...(body.attachments ? { attachments: body.attachments } : {}),
    ...(body.env ? { env: body.env } : {}),
    ...(body.name ? { name: body.name } : {}),
  });
  return Response.json(created, { status: 201 });
});

export const GET = handle(async (request: Request) => {
  const filter = parseThreadListQuery(new URL(request.url).searchParams);
  const runtime = await getRuntime();
  // With accounts, a project key lists its own project's threads, a user those of a project of theirs.
  const principal = currentPrincipal();
  const visible = await runtime.access.visibleProjectIds(principal);
  if (visible) {
    if (!filter.projectId && principal.type === "key") filter.projectId = principal.projectId;
    if (!filter.projectId)
      throw new ForbiddenError("Name one of your projects: GET /api/threads?project_id=<id>.");
    if (!visible.has(filter.projectId))
      throw new ForbiddenError(
        principal.type === "key"
          ? "This project key belongs to another project."
          : "You are not a member of this project.",
      );
  }
  return Response.json(await runtime.threads.list(filter));
});
