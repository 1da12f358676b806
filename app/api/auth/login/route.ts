// POST /api/auth/login — the browser's way in. With accounts: `{ email, password }` → 200 { user } and
// a new session (a new random id each sign-in; the session the browser had is ended), 401 for a wrong
// pair, 429 after repeated failures; an audit entry `sign_in` (method password). Without accounts, behind TANDEM_API_TOKEN: `{ token }` → the
// token's session cookie, as before. Both as JSON (answered with JSON) or as the /login form
// (application/x-www-form-urlencoded, answered with a 303 redirect). Cookies are HttpOnly and
// SameSite=Strict.
import { AccountLoginBodySchema, TokenLoginBodySchema } from "@/lib/contracts/access";
import { getRuntime } from "@/runtime/runtime";
import {
  configuredApiToken,
  safeNextPath,
  secretsMatch,
  sessionCookieHeader,
} from "@/runtime/security/api-token";
import { handle, jsonError, parseJsonBody, readBodyText } from "../../_lib/http";
import { clientAddress, isCrossSiteRequest, isHttps, sessionCookie } from "../../_lib/session";

export const dynamic = "force-dynamic";

export const POST = handle(
  async (request: Request) => {
    const isForm = (request.headers.get("content-type") ?? "").startsWith(
      "application/x-www-form-urlencoded",
    );
    const text = await readBodyText(request);
    const fields = isForm ? Object.fromEntries(new URLSearchParams(text)) : parseJsonBody(text);
    if (fields === undefined || fields === null || typeof fields !== "object")
      return jsonError(
        400,
        "invalid_request",
        "Send JSON { email, password } (or { token }) or the /login form.",
      );
    const redirect = (location: string, headers: Record<string, string> = {}) =>
      new Response(null, { status: 303, headers: { location, ...headers } });
    const next = safeNextPath((fields as { next?: unknown }).next as string | undefined);

    if ("email" in fields) {
      const body = AccountLoginBodySchema.parse(fields);
      if (isCrossSiteRequest(request)) {
        if (isForm) return redirect(`/login?error=1&next=${encodeURIComponent(next)}`);
        return jsonError(403, "forbidden", "Cross-site sign-in refused.");
      }
      const runtime = await getRuntime();
      const previous = await runtime.access.authenticate(request.headers);
      try {
        const { user, session } = await runtime.access.login(body, {
          address: clientAddress(request),
          ...(previous.sessionHash ? { previousSessionHash: previous.sessionHash } : {}),
        });
        await runtime.access.recordAudit(
          { type: "user", ...user },
          { projectId: null, action: "sign_in", target: user.id, details: { method: "password" } },
        );
        const cookie = sessionCookie(request, session);
        if (isForm) return redirect(next, { "set-cookie": cookie });
        return Response.json({ ok: true, user }, { headers: { "set-cookie": cookie } });
      } catch (error) {
        if (!isForm) throw error;
        const status = (error as { kind?: string }).kind === "too_many_requests" ? "locked" : "1";
        return redirect(`/login?error=${status}&next=${encodeURIComponent(next)}`);
      }
    }

    const body = TokenLoginBodySchema.parse(fields);
    const expected = configuredApiToken();
    if (!expected) {
      return isForm ? redirect(next) : Response.json({ ok: true, token_required: false });
    }
    if (isCrossSiteRequest(request) || !secretsMatch(body.token, expected)) {
      if (isForm) return redirect(`/login?error=1&next=${encodeURIComponent(next)}`);
      return jsonError(401, "unauthorized", "That is not this server's API token (TANDEM_API_TOKEN).");
    }
    const cookie = sessionCookieHeader(expected, isHttps(request));
    if (isForm) return redirect(next, { "set-cookie": cookie });
    return Response.json({ ok: true, token_required: true }, { headers: { "set-cookie": cookie } });
  },
  { public: true },
);
