// GET /api/projects/:id/analytics?from=&to=&bucket=hour|day — the project's runs, model calls,
// tokens, cost, errors and model-call latency per bucket, and by agent, model and tool
// (../shared/API.md "Traces out"; the parameters' meaning: docs/observability.md "Dashboard").
// `include=outcomes` adds how runs ended, run durations and approval waits (the dashboard page).
import { parseAnalyticsQuery } from "@/lib/contracts/analytics";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const query = parseAnalyticsQuery(new URL(request.url).searchParams);
  const runtime = await getRuntime();
  return Response.json(await runtime.analytics.ofProject(id, query, { outcomes: query.outcomes }), {
    headers: { "cache-control": "no-store" },
  });
});
