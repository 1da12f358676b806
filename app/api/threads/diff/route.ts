// GET /api/threads/diff?a=:id&b=:id — two runs aligned message by message, children by spawn order
// (API.md "Replay, fork and diff"; lib/runs/run-diff.ts). A static segment: Next resolves it before
// the sibling [id] route, so "diff" is never read as a thread id.
import { ThreadDiffQuerySchema } from "@/lib/contracts/run-diff";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request) => {
  const url = new URL(request.url);
  const query = ThreadDiffQuerySchema.parse({
    a: url.searchParams.get("a") ?? undefined,
    b: url.searchParams.get("b") ?? undefined,
  });
  const runtime = await getRuntime();
  return Response.json(await runtime.diffs.diff(query.a, query.b));
});
