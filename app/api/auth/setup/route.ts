// POST /api/auth/setup { email, password, name } — the first user, an admin, signed in at once (201
// { user } + session cookie). Only while no user exists (409 afterwards); on a server behind
// TANDEM_API_TOKEN, only for a caller holding the token.
import { SetupBodySchema } from "@/lib/contracts/access";
import { UnauthorizedError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";
import { handle, jsonError, readJson } from "../../_lib/http";
import { isCrossSiteRequest, sessionCookie } from "../../_lib/session";

export const dynamic = "force-dynamic";

export const POST = handle(
  async (request: Request) => {
    const runtime = await getRuntime();
    const authentication = await runtime.access.authenticate(request.headers);
    const info = await runtime.access.sessionInfo(authentication.principal);
    if (info.token_required && authentication.principal?.type !== "token" && !info.accounts) {
      throw new UnauthorizedError(
        "This server requires its API token to set up accounts: send `Authorization: Bearer <token>`.",
      );
    }
    if (isCrossSiteRequest(request)) return jsonError(403, "forbidden", "Cross-site request refused.");
    const body = await readJson(request, SetupBodySchema);
    const { user, session } = await runtime.access.setup(body);
    await runtime.access.recordAudit(
      { type: "user", ...user },
      {
        projectId: null,
        action: "accounts.setup",
        target: user.id,
        details: { email: user.email },
      },
    );
    return Response.json(
      { user },
      { status: 201, headers: { "set-cookie": sessionCookie(request, session) } },
    );
  },
  { public: true },
);
