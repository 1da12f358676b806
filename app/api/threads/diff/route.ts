// GET /api/threads/diff?a=:id&b=:id — two runs aligned message by message, children by spawn order
// (API.md "Replay, fork and diff"; lib/runs/run-diff.ts). A static segment: Next resolves it before
// the sibling [id] route, so "diff" is never read as a thread id.
import { z } from "zod";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

const DiffQuery = z.object({
  a: z.string({ error: "a is required (a thread id)" }).trim().min(1, "a is required (a thread id)"),
  b: z.string({ error: "b is required (a thread id)" }).trim().min(1, "b is required (a thread id)"),
});

export const GET = handle(async (request: Request) => {
  const url = new URL(request.url);
  const query = DiffQuery.parse({
    a: url.searchParams.get("a") ?? undefined,
    b: url.searchParams.get("b") ?? undefined,
  });
  const runtime = await getRuntime();
  return Response.json(await runtime.diffs.diff(query.a, query.b));
});
