// POST /api/auth/logout — forgets the browser session cookie (a form post is sent back to /login).
import { clearedSessionCookieHeader } from "@/runtime/security/api-token";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const POST = handle(
  async (request: Request) => {
    const cookie = clearedSessionCookieHeader();
    if ((request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
      return new Response(null, { status: 303, headers: { location: "/login", "set-cookie": cookie } });
    }
    return Response.json({ ok: true }, { headers: { "set-cookie": cookie } });
  },
  { public: true },
);
