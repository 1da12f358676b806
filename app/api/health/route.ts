// GET /api/health — liveness plus which database this server uses (never its credentials).
import { describeDatabase } from "@/lib/db/config";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async () => {
  const runtime = await getRuntime();
  await runtime.database.sql.query("SELECT 1");
  return Response.json({
    ok: true,
    database: { kind: runtime.database.config.kind, description: describeDatabase(runtime.database.config) },
  });
});
