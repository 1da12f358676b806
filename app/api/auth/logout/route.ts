// POST /api/auth/logout — ends the browser's session on the server (a user session's row is deleted,
// so the cookie is worthless even if kept) and clears the cookie; a form post is sent back to /login.
import { getRuntime } from "@/runtime/runtime";
import { clearedSessionCookieHeader } from "@/runtime/security/api-token";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const POST = handle(
  async (request: Request) => {
    const runtime = await getRuntime();
    const authentication = await runtime.access.authenticate(request.headers);
    await runtime.access.logout(authentication.sessionHash);
    const cookie = clearedSessionCookieHeader();
    if ((request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
      return new Response(null, { status: 303, headers: { location: "/login", "set-cookie": cookie } });
    }
    return Response.json({ ok: true }, { headers: { "set-cookie": cookie } });
  },
  { public: true },
);
