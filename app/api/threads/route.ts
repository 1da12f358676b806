// POST /api/threads — start a thread of an agent (pinned to the project's current version);
// GET /api/threads — list threads (filters: project_id, parent_id, roots_only, status, agent_id, q;
// paging: limit, offset), parsed by the schema shared with the threads list (lib/contracts/thread-list-query); the
// body schema is lib/contracts/thread-requests.
import { parseThreadListQuery } from "@/lib/contracts/thread-list-query";
import { CreateThreadBodySchema } from "@/lib/contracts/thread-requests";
import { ForbiddenError } from "@/runtime/errors";
import { currentPrincipal, getRuntime } from "@/runtime/runtime";
import { withServerAttachments } from "../_lib/attachments";
import { handle, readJson } from "../_lib/http";

export const dynamic = "force-dynamic";

const CreateThreadBody = withServerAttachments(CreateThreadBodySchema);

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
    // Traces out: the run joins the caller's trace (docs/observability.md).
    traceparent: request.headers.get("traceparent"),
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
