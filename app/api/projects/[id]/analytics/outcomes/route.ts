// GET /api/projects/:id/analytics/outcomes?from=&to=&bucket= — the dashboard's other half: run
// durations per bucket, totals, how runs ended (statuses, stop reasons, failures) and approval waits.
import { parseAnalyticsQuery } from "@/lib/contracts/analytics";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const range = parseAnalyticsQuery(new URL(request.url).searchParams);
  const runtime = await getRuntime();
  return Response.json(await runtime.analytics.outcomesOf(id, range), {
    headers: { "cache-control": "no-store" },
  });
});
