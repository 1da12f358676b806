// GET /api/health — liveness plus which database this server uses (never its credentials). It stays
// open when TANDEM_API_TOKEN is set, so load balancers and orchestrators can probe it without the
// token; an unauthenticated caller then learns only `{ ok }`, not which database is behind it nor
// its load. The same once accounts exist, for a caller without a session or key. `load` is the backpressure: threads waiting and running, model calls in flight.
import { getRuntime } from "@/runtime/runtime";
import { authoriseRequest } from "@/runtime/security/api-token";
import { handle } from "../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(
  async (request: Request) => {
    const runtime = await getRuntime();
    await runtime.ping();
    if (!authoriseRequest(request.headers).ok) return Response.json({ ok: true });
    // With accounts, only a signed-in caller (or a key) learns more than `{ ok }`.
    if (await runtime.access.accountsOn()) {
      const { principal } = await runtime.access.authenticate(request.headers);
      if (!principal) return Response.json({ ok: true });
    }
    return Response.json({
      ok: true,
      database: runtime.databaseInfo(),
      load: await runtime.load.read(),
    });
  },
  { public: true },
);
