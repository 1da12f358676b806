// GET /api/auth/session — whether accounts are on, whether the API token is required, and who this
// request is signed in as (null when nobody): what the studio reads to show "Set up accounts",
// the sign-in page or the signed-in user.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(
  async (request: Request) => {
    const runtime = await getRuntime();
    const authentication = await runtime.access.authenticate(request.headers);
    return Response.json(await runtime.access.sessionInfo(authentication.principal));
  },
  { public: true },
);
