// POST /api/threads/:id/replay — a new root thread that re-runs this one's recorded inputs with every
// model call answered from the recording until a request no longer matches (API.md "Replay, fork
// and diff"; runtime/services/thread-replay.ts). The body is optional: `{ from_version?: "same" | "latest" }`.
// GET /api/threads/:id/replay — the replay's progress and the divergences of its tree.
import { ReplayRequestSchema } from "@/lib/contracts/replay";
import { getRuntime } from "@/runtime/runtime";
import { handle, parseJsonBody, readBodyText } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const POST = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = parseJsonBody(await readBodyText(request));
  const input = ReplayRequestSchema.parse(body ?? {});
  const runtime = await getRuntime();
  return Response.json(await runtime.replays.replay(id, input), { status: 201 });
});

export const GET = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json(await runtime.replays.status(id));
});
